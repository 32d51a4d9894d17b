// What status adds about efforts on top of the fleet rows: each row's Proof state, effort id and landing
// authority; the landing queue; pairs of efforts changing the same paths; the Proof note (or an emergency
// exception record) on the trunk's tip and interrupted emergency landings; and effort branches no worktree
// holds that the trunk does not contain. Each part costs git calls only when there is something to read
// (linked worktrees, effort branches, a notes ref), so a plain checkout's status stays as fast as before.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  DiscernConfig,
  DiscernConsentSource,
  DiscernStatusData,
  DiscernStatusFleetRow,
} from '../../../generated/types.js';
import { effortLandingAuthority } from '../acceptance/effort-authority.js';
import type { Effort } from '../acceptance/efforts.js';
import { changedPaths, queueRows } from '../acceptance/queue-view.js';
import { acceptancePaths, unhonoured } from '../acceptance/records.js';
import { readTaskRecord } from '../efforts/task-record.js';
import { checkoutProof } from '../gate/checkout-state.js';
import { gateStatePaths } from '../gate/state-paths.js';
import { git } from '../git/git.js';
import { linkedGitDir } from '../git/ref-store.js';
import { parseProofNote, NOTES_REF } from '../notes/proof-note.js';
import { notesPushCommand, remoteNames } from '../git/remotes.js';
import { emergencyLandings } from './emergency-view.js';
import type { CompiledScope } from '../scopes/index.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface EffortsViewOptions {
  root: string;
  commonDir: string;
  trunk: string;
  branchPrefix: string;
  config: DiscernConfig;
  scopes: readonly CompiledScope[];
  configCanonical: string;
  version: string;
  env: Env;
  /** The trunk's policy, which alone decides landing authority; without it rows carry no landing_authority. */
  trunkPolicy?: { config: DiscernConfig; scopes: readonly CompiledScope[] };
}

type Extra = Pick<
  DiscernStatusData,
  | 'fleet_collisions'
  | 'queue'
  | 'unhonoured_records'
  | 'landed_proof'
  | 'unlanded_branches'
  | 'landed_exception'
  | 'emergency_pending'
>;

const COLLISION_PATHS_SHOWN = 6;

export async function effortsView(
  fleet: DiscernStatusFleetRow[],
  options: EffortsViewOptions,
): Promise<{ fleet: DiscernStatusFleetRow[]; extra: Extra }> {
  const run = { cwd: options.root, env: options.env };
  const changedBy = new Map<string, string[]>();
  const efforts: Effort[] = [];
  const rows = await Promise.all(
    fleet.map(async (row) => {
      if (row.broken === true) return row;
      const gitDir = row.is_main ? options.commonDir : linkedGitDir(row.path);
      if (gitDir === undefined) return row;
      const gateProof = await checkoutProof(
        gateStatePaths(gitDir, options.commonDir),
        row.head ?? null,
        row.clean !== false,
        options.configCanonical,
        options.version,
      );
      if (row.is_main || row.branch === null || row.head === null || row.head === undefined)
        return { ...row, gate_proof: gateProof };
      const record = await readTaskRecord(gitDir);
      const id = record?.id ?? row.path.split('/').pop() ?? row.path;
      efforts.push({ id, branch: row.branch, path: row.path, gitDir, ...(record ? { record } : {}) });
      const changed = await changedPaths(run, options.trunk, row.head);
      changedBy.set(id, changed);
      const authority = options.trunkPolicy
        ? await effortLandingAuthority({
            commonDir: options.commonDir,
            effort: id,
            branch: row.branch,
            preAuthorized: options.trunkPolicy.config.acceptance?.pre_authorized ?? [],
            scopes: options.trunkPolicy.scopes,
            changed,
          })
        : undefined;
      const copiedBytes = record?.copies?.reduce((sum, copy) => sum + copy.bytes, 0);
      return {
        ...row,
        id,
        ...(record?.port !== undefined ? { port: record.port } : {}),
        ...(copiedBytes !== undefined && copiedBytes > 0 ? { copied_bytes: copiedBytes } : {}),
        gate_proof: gateProof,
        ...(authority ? { landing_authority: authority } : {}),
      };
    }),
  );
  const [queue, notHonoured, landed, unlanded, emergency] = await Promise.all([
    queueRows(
      acceptancePaths(options.commonDir),
      efforts,
      options.trunkPolicy?.scopes ?? options.scopes,
      options.trunkPolicy?.config ?? options.config,
      options.trunk,
      run,
    ),
    unhonoured(acceptancePaths(options.commonDir)),
    landedProof(options, run),
    unlandedBranches(options, run, new Set(fleet.map((r) => r.branch).filter((b): b is string => b !== null))),
    emergencyLandings(options.commonDir, options.trunk, run),
  ]);
  const collisions = collide(changedBy);
  return {
    fleet: rows,
    extra: {
      ...(collisions.length > 0 ? { fleet_collisions: collisions } : {}),
      ...(queue.length > 0 ? { queue } : {}),
      ...(notHonoured.length > 0 ? { unhonoured_records: notHonoured } : {}),
      ...(landed ? { landed_proof: landed } : {}),
      ...(unlanded.length > 0 ? { unlanded_branches: unlanded } : {}),
      ...emergency,
    },
  };
}

function collide(changedBy: Map<string, string[]>): NonNullable<DiscernStatusData['fleet_collisions']> {
  const ids = [...changedBy.keys()].sort();
  const out: NonNullable<DiscernStatusData['fleet_collisions']> = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i] as string;
      const b = ids[j] as string;
      const theirs = new Set(changedBy.get(b));
      const shared = (changedBy.get(a) ?? []).filter((p) => theirs.has(p)).sort();
      if (shared.length > 0)
        out.push({ efforts: [a, b], shared: shared.length, paths: shared.slice(0, COLLISION_PATHS_SHOWN) });
    }
  }
  return out.sort((x, y) => y.shared - x.shared);
}

async function landedProof(
  options: EffortsViewOptions,
  run: { cwd: string; env: Env },
): Promise<DiscernStatusData['landed_proof']> {
  // No notes ref, no note: answered from the ref store without starting git.
  const loose = existsSync(join(options.commonDir, ...NOTES_REF.split('/')));
  const packed = loose
    ? true
    : (await readFile(join(options.commonDir, 'packed-refs'), 'utf8').catch(() => '')).includes(` ${NOTES_REF}\n`);
  if (!loose && !packed && !existsSync(join(options.commonDir, 'reftable'))) return undefined;
  const shown = await git(['notes', `--ref=${NOTES_REF}`, 'show', `refs/heads/${options.trunk}`], run);
  if (shown.code !== 0) return undefined;
  const note = parseProofNote(shown.stdout);
  if (note === undefined) return undefined;
  const keyid = note.envelope.signatures.find((s) => typeof s.sig === 'string' && s.sig !== '')?.keyid;
  const remote = remoteNames(options.commonDir)[0];
  return {
    commit: note.payload.subject.commit,
    ref: NOTES_REF,
    line: note.payload.presentation.line,
    ...(note.payload.acceptance?.consent
      ? { consent: note.payload.acceptance.consent.source as DiscernConsentSource }
      : {}),
    signed: note.envelope.signatures.some((s) => typeof s.sig === 'string' && s.sig !== ''),
    ...(keyid !== undefined ? { keyid } : {}),
    ...(remote !== undefined ? { push: notesPushCommand(remote, options.trunk) } : {}),
  };
}

async function unlandedBranches(
  options: EffortsViewOptions,
  run: { cwd: string; env: Env },
  held: ReadonlySet<string>,
): Promise<string[]> {
  const prefixDir = join(options.commonDir, 'refs', 'heads', ...options.branchPrefix.split('/').filter(Boolean));
  const packed = await readFile(join(options.commonDir, 'packed-refs'), 'utf8').catch(() => '');
  if (
    !existsSync(prefixDir) &&
    !packed.includes(` refs/heads/${options.branchPrefix}`) &&
    !existsSync(join(options.commonDir, 'reftable'))
  )
    return [];
  const listed = await git(['for-each-ref', '--format=%(refname)', `refs/heads/${options.branchPrefix}`], run);
  if (listed.code !== 0) return [];
  const branches = listed.stdout
    .split('\n')
    .filter(Boolean)
    .map((r) => r.slice('refs/heads/'.length))
    .filter((b) => !held.has(b));
  const out: string[] = [];
  for (const branch of branches) {
    const contained = await git(
      ['merge-base', '--is-ancestor', `refs/heads/${branch}`, `refs/heads/${options.trunk}`],
      run,
    );
    if (contained.code !== 0) out.push(branch);
  }
  return out.sort();
}
