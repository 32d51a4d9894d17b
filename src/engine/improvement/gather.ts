// Gathers the audit's facts once, reading in parallel: git (the working state, the tracked files, the branches,
// recent history for the map's freshness and, when there are any, the linked worktrees — five processes at most),
// discern.toml, discern's records under the git directories, the refresh plan and the map. Rules never read;
// they evaluate these facts (docs/decisions/0030). A record that cannot be read counts as absent, as the gate
// reads it; nothing here writes.
import { parseProofNote, NOTES_REF } from '../notes/proof-note.js';
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_SCHEMA_VERSION } from '../../../generated/config-migrations.js';
import { VERSION } from '../../../generated/version.js';
import type { DiscernConfigIssue } from '../../../generated/types.js';
import { acceptancePaths, submissions, transactions } from '../acceptance/records.js';
import { commandIssues, globIssues, preAuthorizedIssues } from '../config/semantic-checks.js';
import { DEFAULT_MAP_DIR } from '../config/defaults.js';
import { frontMatterReader } from '../corpus/front-matter.js';
import { assembleCorpus } from '../corpus/assemble.js';
import { configIdentity } from '../gate/canonical-json.js';
import { pageBrokenLinks } from '../gate/map-integrity.js';
import { markerIsCurrent, readLastRun, readProofMarker, type ProofMarker } from '../gate/proof-records.js';
import { readMeasurements } from '../gate/standard-measurements.js';
import { gateStatePaths } from '../gate/state-paths.js';
import { git, gitComplaint } from '../git/git.js';
import { readWorkingState } from '../git/porcelain-status.js';
import { listWorktrees } from '../git/worktree-list.js';
import { executorState, listOperations } from '../journal/index.js';
import type { Project } from '../project/resolve.js';
import { AGENTS } from '../refresh/agents.js';
import { decisionRecords, decisionsDir } from '../refresh/adr-index.js';
import { planRefresh } from '../refresh/index.js';
import { readSetupState, unfinishedSetup } from '../setup/state.js';
import { inspectLease } from '../state/lease-lock.js';
import { HISTORY_WINDOW, recentCommits, regionLag, type Commit } from './map-lag.js';
import type { CheckpointFact, Facts, OperationFact, StandardValueFact } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

interface Run {
  env: Env;
  signal?: AbortSignal;
}

/** A map page larger than this is not read for front matter and links (the map reader skips it too). */
const PAGE_LIMIT_BYTES = 1024 * 1024;
const GOTCHAS_NAME = /(^|\/)[^/]*gotcha[^/]*\.(md|markdown|txt)$/i;
const WIRING_PATHS = new Set(Object.values(AGENTS).flatMap((a) => [a.mcp.path, ...(a.hooks ? [a.hooks.path] : [])]));

export async function gatherFacts(project: Project, run: Run): Promise<Facts> {
  const now = Date.now();
  const options = { cwd: project.root, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
  const paths = gateStatePaths(project.gitDir, project.commonDir);
  const configFile = 'discern.toml';

  const tracked = git(['ls-files', '-z'], options).then((r) => {
    if (r.code !== 0) throw new Error(`git ls-files failed: ${gitComplaint(r)}`);
    return r.stdout.split('\0').filter((p) => p.length > 0);
  });
  const working = readWorkingState(project.root, run.env, run.signal);
  const journal = listOperations(paths.repositoryDir);
  // History for the map's freshness does not depend on the other facts: it starts now, with the rest.
  const history = stat(join(project.root, mapDirOf(project))).then(
    (info) => (info.isDirectory() ? recentCommits(options) : []),
    () => [],
  );
  history.catch(() => undefined); // a failure surfaces where it is awaited, not as an unhandled rejection

  const [
    files,
    state,
    listing,
    proofRead,
    lastRun,
    setup,
    configCheck,
    refresh,
    worktrees,
    unlanded,
    values,
    acceptance,
  ] = await Promise.all([
    tracked,
    working,
    journal,
    readProofMarker(paths.proofMarker, paths.commonDir),
    readLastRun(paths.lastRun, paths.commonDir),
    setupFacts(project, run),
    configChecks(project, run.env),
    refreshFacts(project, run),
    linkedWorktrees(project, run),
    unlandedBranches(project, options),
    standardValues(project.commonDir),
    acceptanceFacts(project.commonDir),
  ]);
  const trackedSet = new Set(files);
  const [map, instructions, checkpoints] = await Promise.all([
    mapFacts(project, files, trackedSet, history),
    gotchasFacts(project, files),
    checkpointFacts(project),
  ]);

  const marker = proofRead.state === 'present' ? proofRead.marker : undefined;
  const landing = await landingNote(project.commonDir, state.head, { cwd: project.root, env: run.env });
  const operations: OperationFact[] = listing.records
    .filter(({ record }) => now - Date.parse(record.started_at) <= 7 * 86_400_000)
    .map(({ record }) => ({
      handle: record.handle,
      verb: record.verb,
      started_at: record.started_at,
      ...(record.outcome ? { outcome: record.outcome } : {}),
      abandoned: record.finished_at === undefined && executorState(record) === 'gone',
    }))
    .sort((a, b) => a.started_at.localeCompare(b.started_at));
  // accept holds this lease while it lands: a transaction under a live holder is in progress, not interrupted.
  const acceptRunning = inspectLease(join(project.commonDir, 'discern', 'locks', 'accept.lock')).state === 'held';

  return {
    now,
    config: project.config,
    configFile,
    trunk: project.trunk.name,
    head: { commit: state.head, clean: state.changed === 0 },
    tracked: files,
    gate: {
      proof: proofFact(proofRead.state, marker, state.head, project),
      ...(lastRun
        ? {
            lastRun: {
              commit: lastRun.commit,
              verdict: lastRun.verdict,
              failed_stage: lastRun.failed_stage,
              at: lastRun.at,
            },
          }
        : {}),
      operations,
      ...(landing ? { landing } : {}),
      read: ['<git-dir>/discern/gate-proof', '<git-dir>/discern/last-gate-run', 'HEAD', NOTES_REF],
    },
    setup: {
      ...setup,
      configErrors: configCheck.errors.map((i) => ({ path: i.path, message: i.message })),
      configWarnings: configCheck.warnings.map((i) => ({ path: i.path, message: i.message })),
      ...(typeof project.config.meta?.schema_version === 'number'
        ? { schemaVersion: project.config.meta.schema_version }
        : {}),
      currentSchemaVersion: CONFIG_SCHEMA_VERSION,
    },
    refresh,
    instructions,
    map,
    worktrees: {
      linked: worktrees,
      unlanded,
      submissions: acceptance.submissions,
      transactions: acceptance.transactions,
      accept_running: acceptRunning,
    },
    standards: { values },
    checkpoints,
  };
}

/**
 * What validate-config checks beyond the schema, on the loaded configuration: globs and pre_authorized scopes
 * (errors), each job's program (warnings). The schema itself held when the project was resolved, and the trunk
 * exists, so neither is checked again (nor is the schema validator loaded).
 */
async function configChecks(
  project: Project,
  env: Env,
): Promise<{ errors: DiscernConfigIssue[]; warnings: DiscernConfigIssue[] }> {
  const text = await readFile(project.configPath, 'utf8').catch(() => '');
  const errors = [...globIssues(project.config, text), ...preAuthorizedIssues(project.config, text)];
  return { errors, warnings: await commandIssues(project.config, text, project.root, env) };
}

function proofFact(
  state: 'missing' | 'unreadable' | 'present',
  marker: ProofMarker | undefined,
  head: string | null,
  project: Project,
): Facts['gate']['proof'] {
  if (!marker) return { state };
  return {
    state,
    commit: marker.commit,
    recorded_at: marker.recorded_at,
    current_config:
      head !== null && marker.commit === head
        ? markerIsCurrent(marker, head, configIdentity(project.config, project.trunk.name), VERSION)
        : false,
    producers: (marker.producers ?? []).map((p) => ({
      label: p.label,
      outcome: p.outcome,
      duration_ms: p.duration_ms,
    })),
  };
}

async function setupFacts(project: Project, run: Run): Promise<Pick<Facts['setup'], 'unfinished' | 'stateUnreadable'>> {
  if (!existsSync(join(project.commonDir, 'discern', 'setup.json'))) return {};
  const read = await readSetupState(project.commonDir);
  if ('unreadable' in read) return { stateUnreadable: read.unreadable };
  const unfinished = await unfinishedSetup(project.commonDir, { cwd: project.root, env: run.env });
  return unfinished
    ? { unfinished: { phase: unfinished.phase, branch: unfinished.branch, next: unfinished.next } }
    : {};
}

async function refreshFacts(project: Project, run: Run): Promise<Facts['refresh']> {
  const skillsDirSetting = (project.config.skills?.dir ?? 'discern/skills').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const empty: Facts['refresh'] = {
    agents: [],
    targets: [],
    errors: [],
    skipped: [],
    sources: [],
    sourceChars: 0,
    skillsDir: skillsDirSetting,
    skillsDirExists: false,
    skills: [],
    skillProblems: [],
    ignoredSkillFolders: [],
  };
  let plan: Awaited<ReturnType<typeof planRefresh>>;
  try {
    plan = await planRefresh(project, { env: run.env });
  } catch (error) {
    return { ...empty, failed: error instanceof Error ? error.message : String(error) };
  }
  const chars = await Promise.all(
    plan.sources.map((s) =>
      readFile(join(project.root, s), 'utf8').then(
        (t) => t.trim().length,
        () => 0,
      ),
    ),
  );
  const dirInfo = await stat(join(project.root, plan.skillsDir)).catch(() => undefined);
  const decisions = decisionsDir(project.config.map?.dir);
  const area = (path: string): Facts['refresh']['errors'][number]['area'] => {
    if (WIRING_PATHS.has(path)) return 'wiring';
    if (path.startsWith(`${plan.skillsDir}/`) || path === plan.skillsDir || /(^|\/)SKILL\.md$/.test(path))
      return 'skills';
    if (path.startsWith(`${decisions}/`)) return 'adr-index';
    return 'instructions';
  };
  return {
    agents: plan.agents,
    targets: plan.targets.map((t) => ({ path: t.path, kind: t.kind, action: t.action, removes: t.removes })),
    errors: plan.errors.map((e) => ({ path: e.path, message: e.message, area: area(e.path) })),
    skipped: plan.skipped,
    sources: plan.sources,
    sourceChars: chars.reduce((a, b) => a + b, 0),
    skillsDir: plan.skillsDir,
    skillsDirExists: dirInfo?.isDirectory() === true,
    skills: plan.skills.map((s) => ({
      name: s.name,
      source: s.source,
      excluded: s.excluded,
      copies: s.copies.map((c) => ({ path: c.path, state: c.state })),
    })),
    skillProblems: plan.skillProblems,
    ignoredSkillFolders: plan.ignoredSkillFolders,
  };
}

function mapDirOf(project: Project): string {
  return (project.config.map?.dir ?? DEFAULT_MAP_DIR).replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

async function mapFacts(
  project: Project,
  files: readonly string[],
  tracked: ReadonlySet<string>,
  recent: Promise<Commit[]>,
): Promise<Facts['map']> {
  const dir = mapDirOf(project);
  const decisions = decisionsDir(project.config.map?.dir);
  const exists = (await stat(join(project.root, dir)).catch(() => undefined))?.isDirectory() === true;
  const pagePaths = files.filter((p) => p.startsWith(`${dir}/`) && /\.md$/i.test(p)).sort();
  const read = await Promise.all(
    pagePaths.map(async (path) => {
      const info = await stat(join(project.root, path)).catch(() => undefined);
      if (!info?.isFile() || info.size > PAGE_LIMIT_BYTES) return undefined;
      return {
        path: path.slice(dir.length + 1),
        text: await readFile(join(project.root, path), 'utf8').catch(() => ''),
      };
    }),
  );
  const sources = read.filter((r): r is { path: string; text: string } => r !== undefined);
  const { corpus, frontMatter } = assembleCorpus(sources, await frontMatterReader());
  const folders = new Set<string>();
  for (const path of tracked)
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) folders.add(path.slice(0, at));
  const brokenLinks = sources.flatMap((s) =>
    pageBrokenLinks(`${dir}/${s.path}`, s.text, (p) => tracked.has(p) || folders.has(p)),
  );
  const pages = sources.map((s) => {
    const fm = frontMatter.get(s.path) ?? {};
    const page = corpus.pages.find((p) => p.path === s.path);
    const description =
      typeof fm['description'] === 'string' && fm['description'].trim() !== '' ? fm['description'].trim() : undefined;
    const title =
      typeof fm['title'] === 'string' && fm['title'].trim() !== ''
        ? fm['title'].trim()
        : /^#\s+\S/m.test(page?.content ?? '')
          ? page?.title
          : undefined;
    return {
      path: `${dir}/${s.path}`,
      has_front_matter: /^\uFEFF?---[ \t]*\r?\n/.test(s.text),
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
    };
  });
  const regions = corpus.regions.map((r) => ({
    name: r.name,
    dir: `${dir}/${r.dir}`,
    pages: corpus.pages
      .filter((p) => p.path.startsWith(`${r.dir}/`))
      .map((p) => ({ path: `${dir}/${p.path}`, content: p.content })),
  }));
  const history = await recent;
  const lag = regionLag(regions, dir, tracked, history, history.length >= HISTORY_WINDOW);
  const records = await decisionRecords(project.root, decisions);
  return {
    dir,
    exists,
    pages,
    brokenLinks,
    regions: corpus.regions.map((r) => {
      const f = lag.get(r.name);
      return {
        name: r.name,
        page_count: r.page_count,
        ...(f?.code_changes_since !== undefined ? { code_changes_since: f.code_changes_since } : {}),
        ...(f?.lower_bound ? { lower_bound: true } : {}),
      };
    }),
    decisionsDir: decisions,
    ...(records ? { decisions: records.map((r) => ({ number: r.number, file: r.file })) } : {}),
  };
}

async function gotchasFacts(project: Project, files: readonly string[]): Promise<Facts['instructions']> {
  // `[project] gotchas_doc` is not in this configuration format yet: read it loosely, should a file carry it.
  const configured = (project.config.project as Record<string, unknown> | undefined)?.['gotchas_doc'];
  const found =
    typeof configured === 'string' && configured !== ''
      ? { path: configured.replace(/^(\.\/)+/, ''), configured: true }
      : shortest(files.filter((p) => GOTCHAS_NAME.test(p)));
  if (found === undefined) return {};
  const info = await stat(join(project.root, found.path)).catch(() => undefined);
  return { gotchas: { ...found, ...(info?.isFile() ? { bytes: info.size } : {}) } };
}

function shortest(paths: readonly string[]): { path: string; configured: false } | undefined {
  const path = [...paths].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  return path === undefined ? undefined : { path, configured: false };
}

/**
 * `[checkpoints.<id>]`, read loosely: this configuration format may not define the section yet, and a table
 * that does not look like a checkpoint is reported rather than trusted.
 */
export async function checkpointFacts(project: Pick<Project, 'root' | 'config'>): Promise<Facts['checkpoints']> {
  const section = (project.config as Record<string, unknown>)['checkpoints'];
  const list: CheckpointFact[] = [];
  const unreadable: string[] = [];
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return { list, unreadable };
  for (const [id, value] of Object.entries(section as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      unreadable.push(`${id} is not a table`);
      continue;
    }
    const t = value as Record<string, unknown>;
    const strings = (v: unknown): string[] =>
      typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    const questionFile = typeof t['question_file'] === 'string' ? t['question_file'] : undefined;
    const fileOk =
      questionFile === undefined
        ? undefined
        : ((await stat(join(project.root, questionFile)).catch(() => undefined))?.size ?? 0) > 0;
    list.push({
      id,
      mode: t['mode'] === 'advise' ? 'advise' : 'stop',
      ...(typeof t['scope'] === 'string' ? { scope: t['scope'] } : {}),
      paths: strings(t['paths']),
      exclude_paths: strings(t['exclude_paths']),
      ...(typeof t['question'] === 'string' ? { question: t['question'] } : {}),
      ...(questionFile !== undefined ? { question_file: questionFile, question_file_ok: fileOk === true } : {}),
    });
  }
  return { list, unreadable };
}

async function linkedWorktrees(project: Project, run: Run): Promise<Facts['worktrees']['linked']> {
  // No entry under <common>/worktrees: git lists nothing but the main checkout, so it is not asked.
  const entries = await readdir(join(project.commonDir, 'worktrees')).catch(() => [] as string[]);
  if (entries.length === 0) return [];
  const records = await listWorktrees(project.root, run.env, run.signal);
  return records
    .slice(1)
    .filter((r) => !r.bare)
    .map((r) => {
      const broken = r.prunable ?? (existsSync(r.path) ? undefined : 'the worktree directory is missing');
      return {
        path: r.path,
        branch: r.branch,
        ...(broken !== undefined ? { broken } : {}),
        ...(r.locked !== null ? { locked: r.locked } : {}),
      };
    });
}

async function unlandedBranches(
  project: Project,
  options: { cwd: string; env: Env; signal?: AbortSignal },
): Promise<Facts['worktrees']['unlanded']> {
  const prefix = project.config.repository?.branch_prefix ?? 'agent/';
  const result = await git(
    [
      'for-each-ref',
      `--no-merged=refs/heads/${project.trunk.name}`,
      '--format=%(refname)%00%(committerdate:unix)',
      'refs/heads/',
    ],
    options,
  );
  if (result.code !== 0) return [];
  return result.stdout
    .split('\n')
    .map((line) => line.split('\0'))
    .map(([ref, time]) => ({ branch: (ref ?? '').replace(/^refs\/heads\//, ''), committed_at: Number(time) }))
    .filter((b) => b.branch.startsWith(prefix) && Number.isFinite(b.committed_at));
}

/** The latest value of each standard across every checkout: measurements files and Proof markers. */
async function standardValues(commonDir: string): Promise<Record<string, StandardValueFact>> {
  const linked = await readdir(join(commonDir, 'worktrees')).catch(() => [] as string[]);
  const gitDirs = [commonDir, ...linked.map((name) => join(commonDir, 'worktrees', name))];
  const out: Record<string, StandardValueFact> = {};
  const offer = (name: string, fact: StandardValueFact): void => {
    const held = out[name];
    if (held === undefined || Date.parse(fact.measured_at) > Date.parse(held.measured_at)) out[name] = fact;
  };
  await Promise.all(
    gitDirs.map(async (gitDir) => {
      const paths = gateStatePaths(gitDir, commonDir);
      const [measurements, marker] = await Promise.all([
        readMeasurements(paths.standardMeasurements),
        readProofMarker(paths.proofMarker, paths.commonDir),
      ]);
      for (const [name, m] of Object.entries(measurements))
        offer(name, { value: m.value, measured_at: m.measured_at, source: paths.standardMeasurements });
      if (marker.state === 'present') {
        for (const s of marker.marker.standards ?? []) {
          if (typeof s.value === 'number' && (s.measurement === 'measured' || s.measurement === 'replayed'))
            offer(s.name, { value: s.value, measured_at: marker.marker.recorded_at, source: paths.proofMarker });
        }
      }
    }),
  );
  return out;
}

async function acceptanceFacts(commonDir: string): Promise<Pick<Facts['worktrees'], 'submissions' | 'transactions'>> {
  const paths = acceptancePaths(commonDir);
  const [queued, open] = await Promise.all([submissions.all(paths), transactions.all(paths)]);
  return {
    submissions: queued.map((s) => ({
      effort: s.effort,
      branch: s.branch,
      submitted_at: s.submitted_at,
      ...(s.last_failure && s.last_failure.head === s.head ? { failure: s.last_failure.reason } : {}),
    })),
    transactions: open.map((t) => ({ effort: t.effort, step: t.step, started_at: t.started_at })),
  };
}

/** HEAD's Proof note, when HEAD is a landing: the gate ran on this exact commit (composed) or on its tree. */
async function landingNote(
  commonDir: string,
  head: string | null,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<{ commit: string; line: string } | undefined> {
  if (head === null) return undefined;
  // No notes ref, no note: answered from the ref store without starting git.
  const loose = existsSync(join(commonDir, ...NOTES_REF.split('/')));
  const packed =
    loose || (await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '')).includes(` ${NOTES_REF}\n`);
  if (!packed && !existsSync(join(commonDir, 'reftable'))) return undefined;
  const shown = await git(['notes', `--ref=${NOTES_REF}`, 'show', head], run);
  if (shown.code !== 0) return undefined;
  const note = parseProofNote(shown.stdout);
  if (note === undefined || note.payload.subject.commit !== head) return undefined;
  return { commit: head, line: note.payload.presentation.line };
}
