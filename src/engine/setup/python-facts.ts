// What setup learns of a Python project from its tracked files: its own runner (tox environments, nox sessions,
// hatch scripts, uv or poetry), the tools its configuration names (pytest, ruff, black, mypy, flake8), whether it
// is an installable package and with which extras, tests written for unittest, and whether a runner reads the
// documentation (a doctest over docs/ makes docs/ no neutral scope).
import type { PythonFacts } from './facts.js';
import { listNames, readText, readToml, record, type Source } from './read-files.js';

const PY_MARKERS = [
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'tox.ini',
  'noxfile.py',
  'requirements.txt',
  'requirements-dev.txt',
];
const CONFIGURED = ['pytest', 'ruff', 'black', 'mypy'] as const;

export async function pythonFacts(
  root: Source,
  names: readonly string[],
): Promise<{ facts: PythonFacts; name?: string } | undefined> {
  const markers = PY_MARKERS.filter((m) => names.includes(m));
  if (markers.length === 0) return undefined;
  const pyproject = markers.includes('pyproject.toml') ? await readToml(root, 'pyproject.toml') : undefined;
  const [setupCfg, tox, nox, requirements] = await Promise.all([
    markers.includes('setup.cfg') ? readText(root, 'setup.cfg') : undefined,
    markers.includes('tox.ini') ? readText(root, 'tox.ini') : undefined,
    markers.includes('noxfile.py') ? readText(root, 'noxfile.py') : undefined,
    Promise.all([readText(root, 'requirements.txt'), readText(root, 'requirements-dev.txt')]).then((t) =>
      t.map((x) => x ?? '').join('\n'),
    ),
  ]);
  const toolTable = record(pyproject?.['tool']);
  const project = record(pyproject?.['project']);
  const tools = new Set<string>();
  for (const tool of CONFIGURED) if (tool in toolTable) tools.add(tool);
  if (names.includes('pytest.ini') || names.includes('conftest.py')) tools.add('pytest');
  if (names.includes('ruff.toml') || names.includes('.ruff.toml')) tools.add('ruff');
  if (names.includes('mypy.ini')) tools.add('mypy');
  if (names.includes('.flake8') || /^\[flake8\]/m.test(`${setupCfg ?? ''}\n${tox ?? ''}`)) tools.add('flake8');
  if (/^\[tool:pytest\]/m.test(setupCfg ?? '') || /^\[pytest\]/m.test(tox ?? '')) tools.add('pytest');
  const declared = `${requirements}\n${tox ?? ''}\n${JSON.stringify([project['dependencies'], project['optional-dependencies'], pyproject?.['dependency-groups']])}`;
  for (const tool of [...CONFIGURED, 'flake8'])
    if (new RegExp(`(^|[\\s"'])${tool}\\b`, 'm').test(declared)) tools.add(tool);

  const toxEnvs = tox !== undefined ? toxEnvironments(tox) : [];
  if (tox !== undefined) tools.add('tox');
  const noxSessions = nox !== undefined ? noxSessionNames(nox) : [];
  if (nox !== undefined) tools.add('nox');
  const hatchScripts = hatchScriptNames(record(toolTable['hatch']));
  if (hatchScripts.length > 0) tools.add('hatch');

  const extras = Object.keys(record(project['optional-dependencies'])).filter((e) =>
    /^(test|tests|testing|dev)$/.test(e),
  );
  const installable =
    names.includes('setup.py') ||
    names.includes('setup.cfg') ||
    (pyproject !== undefined && ('build-system' in pyproject || 'name' in project));
  const testsDir = listNames(root, 'tests');
  const unittest = !tools.has('pytest') && testsDir.some((n) => /^test.*\.py$/.test(n));
  const pytestConfig = JSON.stringify(record(toolTable['pytest']));
  const docsInChecks = [tox ?? '', nox ?? '', pytestConfig, setupCfg ?? ''].some((text) =>
    /(^|[\s"'=/])docs?\/|--doctest-glob|sphinx/m.test(text),
  );

  const facts: PythonFacts = {
    markers,
    tools: [...tools].sort(),
    tox_envs: toxEnvs,
    ...(noxSessions.length > 0 ? { nox_sessions: noxSessions } : {}),
    ...(hatchScripts.length > 0 ? { hatch_scripts: hatchScripts } : {}),
    ...(installable ? { installable: true } : {}),
    ...(extras.length > 0 ? { extras } : {}),
    ...(unittest ? { unittest: true } : {}),
    ...(docsInChecks ? { docs_in_checks: true } : {}),
  };
  if (names.includes('uv.lock')) facts.installer = 'uv';
  else if (names.includes('poetry.lock')) facts.installer = 'poetry';
  else if (markers.some((m) => m.startsWith('requirements'))) facts.installer = 'pip';
  const name = project['name'];
  return { facts, ...(typeof name === 'string' && name !== '' ? { name } : {}) };
}

/** tox.ini's envlist, with its `{a,b}` factors expanded (`py{311,312}-lint` → py311-lint, py312-lint). */
export function toxEnvironments(tox: string): string[] {
  const section = /^\[tox\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(tox)?.[1] ?? '';
  const match = /^envlist\s*=\s*((?:.*)(?:\n[ \t]+.*)*)/m.exec(section);
  if (match === null) return [];
  const envs: string[] = [];
  for (const item of (match[1] ?? '').split(/[\s,]+(?![^{]*\})/).filter((e) => e !== '')) envs.push(...expand(item));
  return [...new Set(envs)];
}

function expand(item: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(item);
  if (brace === null) return [item];
  const before = item.slice(0, brace.index);
  const after = item.slice(brace.index + brace[0].length);
  return (brace[1] ?? '').split(',').flatMap((choice) => expand(`${before}${choice.trim()}${after}`));
}

/** The functions noxfile.py decorates with @nox.session (named by `name=` when it gives one). */
export function noxSessionNames(nox: string): string[] {
  const sessions: string[] = [];
  for (const m of nox.matchAll(/@nox\.session(?:\(([^)]*)\))?\s*\n\s*def\s+([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const named = /name\s*=\s*["']([^"']+)["']/.exec(m[1] ?? '')?.[1];
    sessions.push(named ?? (m[2] as string));
  }
  return sessions;
}

/** [tool.hatch.envs.<env>.scripts]: each script, with its environment. */
function hatchScriptNames(hatch: Record<string, unknown>): { env: string; script: string }[] {
  const out: { env: string; script: string }[] = [];
  for (const [env, table] of Object.entries(record(hatch['envs'])))
    for (const script of Object.keys(record(record(table)['scripts']))) out.push({ env, script });
  return out;
}
