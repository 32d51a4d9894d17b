// How a change's discern.toml differs from the trunk's policy, each difference classified by what landing it
// needs. Pure. The rule is closed the safe way round: every difference in a policy key needs the owner's
// approval (approve_policy) unless it is one of the few shapes that can only add checking — a new job,
// checkpoint or standard, a limit or timeout moved in its own direction, a pre_authorized list narrowed — or a
// loosened standard limit, which has its own proposal and approval (approve_standard).
import type {
  DiscernConfig,
  DiscernPolicyApproval,
  DiscernPolicyChange,
  DiscernPolicyChangeKind,
} from '../../../generated/types.js';
import { canonicalJson } from '../gate/canonical-json.js';
import { KNOWN_JOB_STAGES } from '../config/jobs.js';
import { policyOf, type Policy } from './view.js';

type Table = Record<string, unknown>;
/** A value as TOML decodes it: never null or undefined. */
type TomlValue = NonNullable<DiscernPolicyChange['trunk']>;

export function comparePolicy(trunk: DiscernConfig, change: DiscernConfig): DiscernPolicyChange[] {
  const t = policyOf(trunk);
  const c = policyOf(change);
  const out: DiscernPolicyChange[] = [];
  for (const section of unionKeys(t, c)) {
    const a = t[section];
    const b = c[section];
    if (section === 'jobs') compareJobs(asTable(a), asTable(b), out);
    else if (section === 'standards') compareNamed(section, asTable(a), asTable(b), out, compareStandard, 'none');
    else if (section === 'checkpoints') compareNamed(section, asTable(a), asTable(b), out, compareGeneric, 'none');
    // A new scope or generator can change what is judged (neutral, generated paths): even adding one needs approval.
    else if (section === 'scopes' || section === 'generated')
      compareNamed(section, asTable(a), asTable(b), out, compareGeneric, 'approve_policy');
    else if (section === 'gate') compareGate(asTable(a), asTable(b), out);
    else if (section === 'acceptance') compareAcceptance(asTable(a), asTable(b), out);
    else compareGeneric(section, [section], a, b, out);
  }
  return out;
}

/** Whether any change needs the owner's approval of policy (approve_policy). */
export function needsPolicyApproval(changes: readonly DiscernPolicyChange[]): DiscernPolicyChange[] {
  return changes.filter((c) => c.approval === 'approve_policy');
}

type Compare = (section: string, path: string[], a: unknown, b: unknown, out: DiscernPolicyChange[]) => void;

/** Named tables ([standards.<n>], [scopes.<n>], …): a removed one needs approval; a new one needs `addition`. */
function compareNamed(
  section: string,
  a: Table,
  b: Table,
  out: DiscernPolicyChange[],
  each: Compare,
  addition: DiscernPolicyApproval,
): void {
  for (const name of unionKeys(a, b)) {
    const path = [section, name];
    if (!(name in b)) out.push(entry(section, path, a[name], undefined, 'removal', 'approve_policy'));
    else if (!(name in a)) out.push(entry(section, path, undefined, b[name], 'addition', addition));
    else each(section, path, a[name], b[name], out);
  }
}

function compareJobs(a: Table, b: Table, out: DiscernPolicyChange[]): void {
  for (const name of unionKeys(a, b)) {
    const path = ['jobs', name];
    if (!(name in b)) {
      out.push(entry('jobs', path, a[name], undefined, 'removal', 'approve_policy'));
      continue;
    }
    if (!(name in a)) {
      out.push(entry('jobs', path, undefined, b[name], 'addition', 'none'));
      continue;
    }
    const x = normalJob(name, a[name]);
    const y = normalJob(name, b[name]);
    if (!same(x.run, y.run)) out.push(entry('jobs', [...path, 'run'], x.run, y.run, 'change', 'approve_policy'));
    if (x.stage !== y.stage) out.push(entry('jobs', [...path, 'stage'], x.stage, y.stage, 'change', 'approve_policy'));
    compareTimeout('jobs', [...path, 'timeout'], x.timeout, y.timeout, out);
    // Which known job a custom job stands for is what status, doctor and the audit report as the project's test.
    if (!same(x.provides, y.provides))
      out.push(entry('jobs', [...path, 'provides'], x.provides, y.provides, 'change', 'approve_policy'));
  }
}

function compareStandard(section: string, path: string[], a: unknown, b: unknown, out: DiscernPolicyChange[]): void {
  const x = asTable(a);
  const y = asTable(b);
  for (const key of unionKeys(x, y)) {
    const at = [...path, key];
    if (same(x[key], y[key])) continue;
    const limits =
      key === 'limit' &&
      typeof x[key] === 'number' &&
      typeof y[key] === 'number' &&
      same(x['direction'], y['direction']);
    if (limits) {
      const up = x['direction'] === 'up';
      const tighter = up ? (y[key] as number) > (x[key] as number) : (y[key] as number) < (x[key] as number);
      out.push(
        entry(section, at, x[key], y[key], tighter ? 'tightening' : 'loosening', tighter ? 'none' : 'approve_standard'),
      );
    } else out.push(entry(section, at, x[key], y[key], kindOf(x[key], y[key]), 'approve_policy'));
  }
}

function compareGate(a: Table, b: Table, out: DiscernPolicyChange[]): void {
  for (const key of unionKeys(a, b)) {
    if (key === 'timeout') compareTimeout('gate', ['gate', key], a[key], b[key], out);
    else compareGeneric('gate', ['gate', key], a[key], b[key], out);
  }
}

function compareAcceptance(a: Table, b: Table, out: DiscernPolicyChange[]): void {
  for (const key of unionKeys(a, b)) {
    const path = ['acceptance', key];
    if (key === 'pre_authorized' && Array.isArray(a[key]) && isSubset(b[key], a[key] as unknown[])) {
      if (!same(a[key], b[key])) out.push(entry('acceptance', path, a[key], b[key], 'tightening', 'none'));
    } else compareGeneric('acceptance', path, a[key], b[key], out);
  }
}

/** A timeout is tighter only when both are set and the change's is a real limit below the trunk's. */
function compareTimeout(section: string, path: string[], a: unknown, b: unknown, out: DiscernPolicyChange[]): void {
  if (same(a, b)) return;
  const tighter = typeof a === 'number' && typeof b === 'number' && b > 0 && (a === 0 || b < a);
  out.push(
    entry(
      section,
      path,
      a,
      b,
      tighter ? 'tightening' : a === undefined ? 'addition' : b === undefined ? 'removal' : 'loosening',
      tighter ? 'none' : 'approve_policy',
    ),
  );
}

/** Every other key: tables compared key by key, anything else as a whole; each difference needs approval. */
function compareGeneric(section: string, path: string[], a: unknown, b: unknown, out: DiscernPolicyChange[]): void {
  if (same(a, b)) return;
  if (isTable(a) && isTable(b)) {
    for (const key of unionKeys(a, b)) compareGeneric(section, [...path, key], a[key], b[key], out);
    return;
  }
  out.push(entry(section, path, a, b, kindOf(a, b), 'approve_policy'));
}

function normalJob(
  name: string,
  value: unknown,
): { run: string[]; stage: string | undefined; timeout: unknown; provides: unknown } {
  const table = isTable(value) ? value : { run: value };
  const run = table['run'];
  const commands = (Array.isArray(run) ? run : run === undefined ? [] : [run]).map((c) => String(c).trim());
  return {
    run: commands,
    stage: (table['stage'] as string | undefined) ?? KNOWN_JOB_STAGES[name],
    timeout: table['timeout'],
    provides: table['provides'],
  };
}

function entry(
  section: string,
  path: readonly string[],
  trunk: unknown,
  change: unknown,
  kind: DiscernPolicyChangeKind,
  approval: DiscernPolicyApproval,
): DiscernPolicyChange {
  return {
    section,
    key: path.join('.'),
    ...(trunk !== undefined ? { trunk: trunk as TomlValue } : {}),
    ...(change !== undefined ? { change: change as TomlValue } : {}),
    kind,
    approval,
    sentence: sentence(path, trunk, change, kind),
  };
}

function sentence(path: readonly string[], trunk: unknown, change: unknown, kind: DiscernPolicyChangeKind): string {
  const where = where_(path);
  if (change === undefined) return `${where} is removed (the trunk has ${shown(trunk)})`;
  if (trunk === undefined) return `${where} is added (${shown(change)})`;
  return `${where} ${kind === 'tightening' ? 'tightens' : kind === 'loosening' ? 'loosens' : 'changes'} from ${shown(trunk)} to ${shown(change)}`;
}

/** `[jobs.test] run` for jobs.test.run; `[jobs.test]` for a whole table; `[gate] timeout` for gate.timeout. */
function where_(path: readonly string[]): string {
  const [section, ...rest] = path;
  if (rest.length === 0) return `[${section}]`;
  if (
    (section === 'jobs' ||
      section === 'standards' ||
      section === 'checkpoints' ||
      section === 'scopes' ||
      section === 'generated') &&
    rest.length >= 1
  ) {
    const [name, ...keys] = rest;
    return keys.length === 0 ? `[${section}.${name}]` : `[${section}.${name}] ${keys.join('.')}`;
  }
  return `[${section}] ${rest.join('.')}`;
}

const SHOWN = 80;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text;
}

function kindOf(a: unknown, b: unknown): DiscernPolicyChangeKind {
  return a === undefined ? 'addition' : b === undefined ? 'removal' : 'change';
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function isTable(value: unknown): value is Table {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asTable(value: unknown): Table {
  return isTable(value) ? value : {};
}

function isSubset(value: unknown, of: readonly unknown[]): boolean {
  return Array.isArray(value) && value.every((v) => of.includes(v));
}

function unionKeys(a: Policy | Table, b: Policy | Table): string[] {
  return [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
}

/**
 * The policy changes an effort makes, judged against the trunk's tip: the differences between the trunk and the
 * effort's HEAD at the keys the effort itself edited since its merge-base. A rule the trunk gained after the
 * effort left it is not one the effort removes — a landing composes it in.
 */
export function effortPolicyChanges(
  trunk: DiscernConfig,
  mergeBase: DiscernConfig,
  head: DiscernConfig,
): DiscernPolicyChange[] {
  const edited = comparePolicy(mergeBase, head).map((c) => c.key);
  const overlaps = (a: string, b: string): boolean => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  return comparePolicy(trunk, head).filter((c) => edited.some((key) => overlaps(key, c.key)));
}
