// setup done commits what refresh writes for the draft's configuration — the agents' instruction regions, MCP
// wiring, hooks and skills — on the setup branch before the first gate, so the commit that is proven and landed
// already holds them (and the gate's refresh-currency check governs them from then on). discern's own commit:
// hooks off and an identity only where git has none, as for the draft (docs/decisions/0022).
import type { Project } from '../project/resolve.js';
import { applyRefresh, planRefresh } from '../refresh/index.js';
import { ignoredPaths } from '../git/ignored.js';
import { gitWithoutHooks, identityOptions } from './setup-git.js';

export const MACHINERY_MESSAGE = 'discern setup: agent instructions, MCP wiring and skills';

export type Machinery =
  | { ok: true; written: string[]; commit?: string; ignored?: string[] }
  | { ok: false; kind: 'write_denied'; path: string; message: string }
  | { ok: false; kind: 'refresh' | 'commit'; message: string; written: string[] };

export async function commitMachinery(
  project: Project,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Machinery> {
  const plan = await planRefresh(project, { env });
  if (plan.errors.length > 0)
    return {
      ok: false,
      kind: 'refresh',
      written: [],
      message: plan.errors.map((e) => `${e.path}: ${e.message}`).join('; '),
    };
  if (plan.targets.length === 0) return { ok: true, written: [] };
  const applied = await applyRefresh(plan, { env, commonDir: project.commonDir });
  if (!applied.ok && applied.reason === 'write_denied')
    return { ok: false, kind: 'write_denied', path: applied.path, message: applied.message };
  if (!applied.ok)
    return {
      ok: false,
      kind: 'refresh',
      written: applied.written.map((t) => t.path),
      message: `${applied.failed.path}: ${applied.message}`,
    };
  const run = { cwd: project.root, env };
  // A file the ignore rules cover (a .vscode/ folder people often ignore) stays written on disk, uncommitted.
  const ignored = await ignoredPaths(
    applied.written.map((t) => t.path),
    run,
  );
  const written = applied.written.map((t) => t.path).filter((p) => !ignored.has(p));
  if (written.length === 0) return { ok: true, written, ignored: [...ignored] };
  const added = await gitWithoutHooks(['add', '-A', '--', ...written], run);
  const committed =
    added.code === 0
      ? await gitWithoutHooks(['commit', '-q', '--no-verify', '-m', MACHINERY_MESSAGE], run, await identityOptions(run))
      : added;
  if (committed.code !== 0) {
    // Nothing half-staged is left behind: the files stay written, the index as it was.
    await gitWithoutHooks(['reset', '-q', '--', ...written], run);
    return {
      ok: false,
      kind: 'commit',
      written,
      message: (committed.stderr || committed.stdout).trim() || `git exited ${committed.code}`,
    };
  }
  const head = await gitWithoutHooks(['rev-parse', 'HEAD'], run);
  return { ok: true, written, ignored: [...ignored], ...(head.code === 0 ? { commit: head.stdout.trim() } : {}) };
}
