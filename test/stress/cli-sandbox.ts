// The world the hostile CLI calls run in, laid out so that anything escaping the project shows:
//   <sandbox>/parent/  sentinel + one scratch project per command (and its legitimate `<repo>.worktrees`)
//   <sandbox>/home/    HOME, empty but for the discern key (.config/discern/signing/ed25519, 0600)
//   <sandbox>/tmp/     TMPDIR, empty
// and a marker path that only a shell running an injected `touch` would create. After every call the parent
// must hold only those entries, the sentinel its text, HOME and TMPDIR nothing, and the marker must not exist.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/cli.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import type { Hostile } from './cli-argv.js';
import { sized } from '../helpers/test-size.js';

export const SEED = Number.parseInt(process.env['DISCERN_FUZZ_SEED'] ?? '', 10) || 20261201;
/** Generated calls per command: 12 bounded, 200 full (test/helpers/test-size.ts); DISCERN_FUZZ_RUNS overrides. */
export const RUNS = sized('DISCERN_FUZZ_RUNS', { bounded: 12, full: 200 });

/** A project whose one job is instant, so a gate run costs discern's own work, not the job's. */
export const GOOD_CONFIG = `[project]
name = "Fuzz"

[repository]
trunk = "main"

[jobs]
test = "true"
`;

/** discern.toml as a hostile or careless repository may hold it (written before a call, never committed). */
export const BAD_CONFIGS: Record<string, string | Buffer> = {
  truncated: '[project]\nname = "Fu',
  'wrong types': '[project]\nname = 7\n[repository]\ntrunk = ["main"]\n[jobs]\ntest = { run = 1 }\n',
  'undeclared keys': `${GOOD_CONFIG}\n[nonsense]\nkey = "value"\n[jobs.extra]\nunknown = true\n`,
  'deep nesting': `a = ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
  'deep tables': `[${Array.from({ length: 2000 }, (_, i) => `t${i}`).join('.')}]\nx = 1\n`,
  'nul byte': `[project]\nname = "Fu\u0000zz"\n[repository]\ntrunk = "main"\n`,
  'invalid utf-8': Buffer.concat([
    Buffer.from('[project]\nname = "'),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
    Buffer.from('"\n[repository]\ntrunk = "main"\n'),
  ]),
  'huge value': `[project]\nname = "${'x'.repeat(2_000_000)}"\n[repository]\ntrunk = "main"\n`,
  'duplicate keys': '[project]\nname = "a"\nname = "b"\n',
  empty: '',
};

export interface Sandbox {
  root: string;
  parent: string;
  home: string;
  tmp: string;
  sentinel: string;
  hostile: Hostile;
  project(label: string): ScratchRepo;
  /** Throws when anything outside the projects changed. `final` also requires TMPDIR to be empty. */
  assertIntact(final?: boolean): void;
}

const SENTINEL_TEXT = 'nothing outside the project may change\n';

export function makeSandbox(): Sandbox {
  const root = tempDir('discern-fuzz-');
  const parent = join(root, 'parent');
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  for (const dir of [parent, home, tmp]) mkdirSync(dir);
  const sentinel = join(parent, 'sentinel.txt');
  writeFileSync(sentinel, SENTINEL_TEXT);
  const marker = join(root, 'INJECTED');
  const projects: ScratchRepo[] = [];
  const hostile: Hostile = { marker, outside: [parent, sentinel, home, root], known: ['fz1', 'agent/fz1', 'main'] };
  const project = (label: string): ScratchRepo => {
    // scratchRepo makes its directory under the OS temp dir: point that at the parent for this one call.
    const previous = process.env['TMPDIR'];
    process.env['TMPDIR'] = parent;
    try {
      const repo = scratchRepo({
        'discern.toml': GOOD_CONFIG,
        'src/app.ts': `export const label = ${JSON.stringify(label)};\n`,
      });
      projects.push(repo);
      return repo;
    } finally {
      if (previous === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = previous;
    }
  };
  const assertIntact = (final = false): void => {
    assert.equal(existsSync(marker), false, `a shell ran an injected command: ${marker} exists`);
    assert.deepEqual(readdirSync(root).sort(), ['home', 'parent', 'tmp'], 'something was written beside the sandbox');
    const allowed = new Set([
      'sentinel.txt',
      ...projects.flatMap((p) => [p.root, `${p.root}.worktrees`].map((d) => d.slice(parent.length + 1))),
    ]);
    const stray = readdirSync(parent).filter((name) => !allowed.has(name));
    assert.deepEqual(stray, [], `files appeared beside the projects: ${stray.join(', ')}`);
    assert.equal(readFileSync(sentinel, 'utf8'), SENTINEL_TEXT, 'the sentinel beside the projects changed');
    // A call may write two things to HOME, each at its documented place and readable by this user alone: the
    // discern key (`verify --signer-line`, or a landing's note; docs/decisions/0050), and the code cache of files
    // the build's cache does not hold for this Node (docs/decisions/0056).
    const written = filesUnder(home);
    assert.ok(
      written.every(
        (f) =>
          f === '.config/discern/signing/ed25519' ||
          /^\.cache\/discern\/code-cache\/\d+-[0-9a-f]+\/[\w/.-]+\.bin$/.test(f),
      ),
      `something was written to HOME: ${written.join(', ')}`,
    );
    for (const file of written)
      assert.equal(statSync(join(home, file)).mode & 0o077, 0, `${file} is readable by others`);
    if (final) assert.deepEqual(readdirSync(tmp), [], 'something was left in TMPDIR');
  };
  return { root, parent, home, tmp, sentinel, hostile, project, assertIntact };
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

/** The environment a call runs with: no inherited GIT_/DISCERN_ variables, HOME and TMPDIR in the sandbox. */
export function sandboxEnv(s: Sandbox, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base))
    if (v !== undefined && !k.startsWith('GIT_') && !k.startsWith('DISCERN_') && !k.startsWith('XDG_')) env[k] = v;
  return { ...env, HOME: s.home, TMPDIR: s.tmp, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
}

/** Error slug → family, from the contract's source (spec/vocabularies.yaml), not from the generated code. */
export function errorFamilies(): Map<string, string> {
  const vocab = parse(readFileSync(`${REPO_ROOT}spec/vocabularies.yaml`, 'utf8')) as {
    error_slugs: Record<string, { family: string }>;
  };
  return new Map(Object.entries(vocab.error_slugs).map(([slug, v]) => [slug, v.family]));
}

/** The reference's exit-code table applied to a --json result. */
export function expectedExit(result: Record<string, unknown>, families: Map<string, string>): number {
  if (result['ok'] === true) {
    const data = result['data'] as Record<string, unknown> | undefined;
    return result['verb'] === 'await' && data?.['met'] === false && data['cancelled'] !== true ? 124 : 0;
  }
  const family = families.get(String(result['error']));
  return family === 'arguments' ? 2 : 1;
}

const STACK_FRAME = /^\s+at .*(?:\(.*:\d+:\d+\)|:\d+:\d+)$/m;

export function assertNoStack(text: string, where: string): void {
  assert.ok(!STACK_FRAME.test(text), `${where} carries a stack trace:\n${text.slice(0, 2000)}`);
}
