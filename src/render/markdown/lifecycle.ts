// Authored Markdown for the CLI lifecycle commands: scripts (the list, or the command a bare call runs),
// identity, releases and licenses.
import type { DiscernIdentityResult, DiscernLicensesResult, DiscernReleasesResult, DiscernScriptsResult } from '../../../generated/types.js';
import { shellQuote } from '../../engine/process/shell-quote.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderScripts(result: DiscernScriptsResult): string {
  const data = result.data && 'scripts' in result.data ? result.data : undefined;
  const listing = data
    ? data.scripts.length === 0
      ? `No scripts: ${code(data.dir)} ${data.exists ? 'has no files' : 'does not exist'}. A script is an executable file directly in it, run with ${code('discern scripts <name>')}.`
      : `## Scripts in ${code(data.dir)}\n\n${table(
          ['Script', 'Run it'],
          data.scripts.map((s) => [code(s.name), s.executable ? code(`discern scripts ${s.name}`) : `not executable (${code(`chmod +x ${s.path}`)})`]),
        )}`
    : undefined;
  if (!result.ok) return frame(result, { state: failureState(result, 'discern scripts'), evidence: listing });
  if (data?.run) {
    const command = [data.run.program, ...data.run.args].map(shellQuote).join(' ');
    return frame(result, { state: `# discern scripts ${data.run.name}\n\nChecked, not run (a result format was asked for). Without one, discern runs it in ${code(data.run.cwd)}:\n\n\`\`\`sh\n${command}\n\`\`\`` });
  }
  return frame(result, { state: '# discern scripts', evidence: listing });
}

export function renderIdentity(result: DiscernIdentityResult): string {
  const data = result.data && 'identity' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern identity'), evidence: issues });
  }
  const from = data.source === 'config_slug' ? '`[project] slug`' : data.source === 'config_name' ? `\`[project] name\` (${code(data.name)})` : `the repository folder's name (${code(data.name)})`;
  return frame(result, { state: `# discern identity\n\n${code(data.identity)}, from ${from}.\n\nRepository root: ${code(data.root)}` });
}

export function renderReleases(result: DiscernReleasesResult): string {
  const data = result.data;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern releases') });
  const state = `# discern releases\n\nThis is discern ${data.current}; ${data.latest_stable === null ? 'no release is on the stable channel yet' : `the latest stable release is ${data.latest_stable}`}.`;
  const entries = data.releases.map((r) => `## ${r.version} — ${r.date}${r.channel === 'stable' ? '' : ` (${r.channel})`}\n\n${r.summary}\n\n${r.changes.map((c) => `- **${c.kind}**: ${c.text}`).join('\n')}`);
  return frame(result, { state, evidence: entries.join('\n\n') });
}

export function renderLicenses(result: DiscernLicensesResult): string {
  const data = result.data;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern licenses') });
  const state = `# discern licenses\n\n${data.count} third-party package${data.count === 1 ? ' is' : 's are'} bundled into discern. Their license texts are in ${code(data.path.replace(/licenses\.json$/, 'THIRD-PARTY-LICENSES'))}.`;
  return frame(result, { state, evidence: table(['Package', 'Version', 'License'], data.packages.map((p) => [code(p.name), p.version, p.license])) });
}
