// The gate precondition that refuses a run under an untrusted git filter driver (filter-trust.ts says why and how
// the drivers are found). It runs before any job: its answer names each driver, its command, and the exact line
// that trusts it in the trunk's discern.toml.
import { git, type GitResult } from '../git/git.js';
import {
  FILTER_CONFIG_COMMAND,
  attributeFilterNames,
  judgeDrivers,
  namesInAttributesFile,
  readFilterConfig,
  trustLine,
  trustedFiltersFrom,
} from './filter-trust.js';
import { trunkConfigRead } from './trunk-limits.js';
import type { PreconditionContext, PreconditionOutcome } from './precondition-types.js';

export async function untrustedFilters(
  ctx: PreconditionContext,
  listing: Promise<GitResult> | undefined,
): Promise<PreconditionOutcome['failure'] | undefined> {
  const o = { cwd: ctx.root, env: ctx.env, signal: ctx.signal };
  const listed = await (listing ?? git(['ls-files', '-z'], o));
  const tracked = listed.stdout
    .split('\0')
    .filter((e) => e.length > 0)
    // `ls-files -v` prefixes each path with its tag and a space.
    .map((e) => (listing !== undefined ? e.slice(2) : e));
  const gitDir = ctx.project?.gitDir ?? ctx.commonDir ?? '';
  const commonDir = ctx.commonDir ?? ctx.project?.commonDir ?? gitDir;
  const attributes = await attributeFilterNames({ root: ctx.root, gitDir, commonDir, env: ctx.env, tracked });
  if (attributes.names !== 'all' && attributes.names.size === 0 && !attributes.elsewhere) return undefined;

  const read = await readFilterConfig(o);
  if (!read.ok)
    return {
      failedStage: 'untrusted_filters',
      error: 'gate_failed',
      message: `git could not list the configured filter drivers (${read.reason}), so discern cannot tell whether the jobs would see the committed content. Fix the git config and run done again.`,
      diagnostics: [{ tool: 'git', severity: 'error', message: read.reason, reproduce_cmd: FILTER_CONFIG_COMMAND }],
    };
  const names = attributes.names;
  if (names !== 'all' && read.config.attributesFile !== undefined)
    for (const n of await namesInAttributesFile(read.config.attributesFile, ctx.root, ctx.env)) names.add(n);
  const applied = read.config.drivers.filter((d) => names === 'all' || names.has(d.name));
  // Git LFS's own commands need no policy: the trunk's config is read only for another command.
  const judged = judgeDrivers(applied, []);
  if (judged.every((d) => d.trusted)) return undefined;
  const trunkList = trustedFiltersFrom(await (ctx.reads?.trunkConfig ?? trunkConfigRead(ctx)).catch(() => undefined));
  const untrusted = judgeDrivers(applied, trunkList).filter((d) => !d.trusted);
  if (untrusted.length === 0) return undefined;

  const line = trustLine(
    trunkList,
    untrusted.map((d) => d.command),
  );
  const ownList = ctx.project?.config.gate?.trusted_filters ?? [];
  const own = untrusted.some((d) => ownList.includes(d.command))
    ? ` This checkout's discern.toml lists ${untrusted.length === 1 ? 'it' : 'some of them'}, but trust is read from the trunk's (${ctx.base}) discern.toml only: a change cannot trust its own filter.`
    : '';
  const shown = untrusted.map((d) => `filter "${d.name}" ${d.key} \`${d.command}\``).join(', ');
  return {
    failedStage: 'untrusted_filters',
    error: 'gate_failed',
    message: `${untrusted.length === 1 ? 'A git filter driver the owner has not trusted is' : `${untrusted.length} git filter driver commands the owner has not trusted are`} configured for files here: ${shown}. A filter rewrites files between the working tree and the repository, so the jobs could test content a fresh checkout does not get; drivers are trusted by command, not by name.${own} If the owner trusts it, add \`${line}\` under [gate] in the trunk's discern.toml; otherwise remove the driver from git config (\`git config --show-origin --get-regexp '^filter\\.'\` shows where it is set). Then run done again.`,
    diagnostics: untrusted.map((d) => ({
      tool: 'git',
      severity: 'error' as const,
      message: `filter.${d.name}.${d.key} = ${d.command}: ${d.reason}. To trust it, add under [gate] in ${ctx.base}'s discern.toml: ${line}`,
      reproduce_cmd: FILTER_CONFIG_COMMAND,
    })),
  };
}
