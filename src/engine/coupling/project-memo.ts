// The resolved project, remembered for the CLI's warm coupling path (docs/decisions/0025): after a call resolved
// the project the usual way, the exact bytes of discern.toml, the parsed configuration and the trunk are kept
// in <git-dir>/discern/coupling-project.json. A later call whose checkout, discern.toml bytes, discern version,
// configuration schema and DISCERN_TRUNK are all the same would resolve to the same project, so it takes the remembered one
// — no TOML parser, no validator, no asynchronous file system — after checking, as resolution does, that the
// trunk branch still exists. Anything else (a changed byte, a reftable repository, a missing memo) is a miss,
// and the caller resolves the project in full.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_SCHEMA_DIGEST } from '../../../generated/config-schema-digest.js';
import { VERSION } from '../../../generated/version.js';
import type { DiscernConfig } from '../../../generated/types.js';
import { discoverCheckout } from '../git/discover.js';
import type { Project } from '../project/resolve.js';

const FORMAT = 1;
const CONFIG_FILE = 'discern.toml';

interface Memo {
  format: number;
  /** The discern version and configuration schema that resolved it: an upgrade resolves again. */
  version: string;
  schema: string;
  root: string;
  git_dir: string;
  common_dir: string;
  /** Digest and length of discern.toml's bytes when the configuration was parsed from them. */
  config_bytes: string;
  /** DISCERN_TRUNK as it was (null: unset), since it chooses the trunk before the configuration does. */
  discern_trunk: string | null;
  trunk: Project['trunk'];
  config: DiscernConfig;
}

export function memoPath(gitDir: string): string {
  return join(gitDir, 'discern', 'coupling-project.json');
}

/** The project a full resolution from `start` would give, when the memo proves it; undefined otherwise. */
export function rememberedProject(
  start: string,
  env: Readonly<Record<string, string | undefined>>,
): Project | undefined {
  const checkout = discoverCheckout(start);
  if (checkout === undefined) return undefined;
  let memo: Memo;
  let bytes: Buffer;
  try {
    memo = JSON.parse(readFileSync(memoPath(checkout.gitDir), 'utf8')) as Memo;
    bytes = readFileSync(join(checkout.root, CONFIG_FILE));
  } catch {
    return undefined;
  }
  if (memo.format !== FORMAT || memo.version !== VERSION || memo.schema !== CONFIG_SCHEMA_DIGEST) return undefined;
  if (memo.root !== checkout.root || memo.git_dir !== checkout.gitDir || memo.common_dir !== checkout.commonDir)
    return undefined;
  if (memo.config_bytes !== bytesDigest(bytes) || memo.discern_trunk !== (env['DISCERN_TRUNK'] ?? null))
    return undefined;
  if (!branchInRefFiles(checkout.commonDir, memo.trunk.name)) return undefined;
  return { ...checkout, configPath: join(checkout.root, CONFIG_FILE), config: memo.config, trunk: memo.trunk };
}

/**
 * Remembers `project` when discern.toml's bytes still parse to its configuration (the file may have changed
 * since it was resolved: then nothing is written). Best effort: a memo that cannot be written costs speed only.
 */
export async function rememberProject(
  project: Project,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  try {
    if (!project.trunk.exists) return;
    const bytes = readFileSync(project.configPath);
    const digest = bytesDigest(bytes);
    const trunkEnv = env['DISCERN_TRUNK'] ?? null;
    const current = readMemo(project.gitDir);
    if (
      current?.config_bytes === digest &&
      current.version === VERSION &&
      current.schema === CONFIG_SCHEMA_DIGEST &&
      current.discern_trunk === trunkEnv &&
      current.root === project.root
    )
      return;
    const { decodeToml } = await import('../config/toml.js');
    const decoded = decodeToml(bytes, CONFIG_FILE);
    const { withVariables } = await import('../config/substitutions.js');
    if (
      !decoded.ok ||
      JSON.stringify(withVariables(decoded.value as DiscernConfig).config) !== JSON.stringify(project.config)
    )
      return;
    const memo: Memo = {
      format: FORMAT,
      version: VERSION,
      schema: CONFIG_SCHEMA_DIGEST,
      root: project.root,
      git_dir: project.gitDir,
      common_dir: project.commonDir,
      config_bytes: digest,
      discern_trunk: trunkEnv,
      trunk: project.trunk,
      config: project.config,
    };
    const { writeFileAtomic } = await import('../state/atomic-write.js');
    await writeFileAtomic(memoPath(project.gitDir), JSON.stringify(memo), { fsync: false });
  } catch {
    // An unwritable git directory: the warm path resolves in full instead.
  }
}

function readMemo(gitDir: string): Memo | undefined {
  try {
    return JSON.parse(readFileSync(memoPath(gitDir), 'utf8')) as Memo;
  } catch {
    return undefined;
  }
}

/** Two 32-bit FNV-1a hashes and the length: a changed byte changes it (not a security boundary). */
function bytesDigest(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    a = Math.imul(a ^ byte, 0x01000193) >>> 0;
    b = Math.imul(b ^ byte, 0x01000193) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}-${bytes.length}`;
}

/** Whether the branch exists by the ref files alone (a loose ref or a packed-refs line); false when unsure. */
function branchInRefFiles(commonDir: string, name: string): boolean {
  if (existsSync(join(commonDir, 'reftable'))) return false;
  try {
    if (/^[0-9a-f]{40,64}\s*$/.test(readFileSync(join(commonDir, 'refs', 'heads', ...name.split('/')), 'utf8')))
      return true;
  } catch {
    // not a loose ref
  }
  try {
    const wanted = ` refs/heads/${name}`;
    return readFileSync(join(commonDir, 'packed-refs'), 'utf8')
      .split('\n')
      .some((line) => line.endsWith(wanted) && /^[0-9a-f]{40,64} /.test(line));
  } catch {
    return false;
  }
}
