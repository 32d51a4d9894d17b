// Per-ecosystem detection for setup: which package manager and scripts a Node project uses, which Python tools
// are configured, the Cargo package, the Go module, and a Makefile's targets.
import type { NodeFacts } from './facts.js';
export { pythonFacts } from './python-facts.js';
import { listNames, readJson, readText, readToml, record, type Source } from './read-files.js';

const LOCKFILES: readonly [string, NodeFacts['package_manager']][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];
const NODE_TOOLS = ['eslint', 'prettier', '@biomejs/biome', 'typescript', 'vitest', 'jest', 'mocha'];
const NODE_TOOL_FILES: readonly [RegExp, string][] = [
  [/^(\.eslintrc(\..+)?|eslint\.config\.[cm]?[jt]s)$/, 'eslint'],
  [/^(\.prettierrc(\..+)?|prettier\.config\.[cm]?js)$/, 'prettier'],
  [/^biome\.jsonc?$/, 'biome'],
  [/^tsconfig\.json$/, 'typescript'],
];

export async function nodeFacts(
  root: Source,
  names: readonly string[],
): Promise<{ facts: NodeFacts; name?: string } | undefined> {
  const manifest = await readJson(root, 'package.json');
  if (manifest === undefined) return undefined;
  const lock = LOCKFILES.find(([file]) => names.includes(file));
  const declared =
    typeof manifest['packageManager'] === 'string' ? manifest['packageManager'].split('@')[0] : undefined;
  const manager = lock?.[1] ?? (declared === 'pnpm' || declared === 'yarn' || declared === 'bun' ? declared : 'npm');
  const scripts: Record<string, string> = {};
  for (const [key, value] of Object.entries(record(manifest['scripts'])))
    if (typeof value === 'string') scripts[key] = value;
  const deps = { ...record(manifest['dependencies']), ...record(manifest['devDependencies']) };
  const tools = new Set<string>();
  for (const tool of NODE_TOOLS) if (tool in deps) tools.add(tool === '@biomejs/biome' ? 'biome' : tool);
  for (const file of names) for (const [pattern, tool] of NODE_TOOL_FILES) if (pattern.test(file)) tools.add(tool);
  const facts: NodeFacts = { package_manager: manager, scripts, tools: [...tools].sort() };
  if (lock) facts.lockfile = lock[0];
  return {
    facts,
    ...(typeof manifest['name'] === 'string' && manifest['name'] !== '' ? { name: manifest['name'] } : {}),
  };
}

export async function rustFacts(
  root: Source,
  names: readonly string[],
): Promise<{ package?: string; workspace: boolean; locked: boolean } | undefined> {
  if (!names.includes('Cargo.toml')) return undefined;
  const cargo = (await readToml(root, 'Cargo.toml')) ?? {};
  const name = record(cargo['package'])['name'];
  return {
    workspace: 'workspace' in cargo,
    locked: names.includes('Cargo.lock'),
    ...(typeof name === 'string' ? { package: name } : {}),
  };
}

export async function goFacts(root: Source, names: readonly string[]): Promise<{ module: string } | undefined> {
  if (!names.includes('go.mod')) return undefined;
  const text = (await readText(root, 'go.mod')) ?? '';
  return { module: /^module\s+(\S+)/m.exec(text)?.[1] ?? '' };
}

/** Explicit targets of the top-level Makefile, in order: no special (.PHONY), pattern (%) or variable targets. */
export async function makeTargets(root: Source, names: readonly string[]): Promise<string[]> {
  const file = ['GNUmakefile', 'makefile', 'Makefile'].find((n) => names.includes(n));
  if (file === undefined) return [];
  const text = (await readText(root, file)) ?? '';
  const targets: string[] = [];
  for (const match of text.matchAll(
    /^([A-Za-z0-9][A-Za-z0-9_./-]*(?:[ \t]+[A-Za-z0-9][A-Za-z0-9_./-]*)*)[ \t]*::?(?!=)/gm,
  )) {
    for (const target of (match[1] ?? '').split(/[ \t]+/)) if (!targets.includes(target)) targets.push(target);
  }
  return targets;
}

export async function docsDirs(root: Source, names: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ['docs', 'doc']) if (names.includes(dir) && listNames(root, dir).length > 0) found.push(dir);
  return found;
}
