// Every governing checkpoint against the committed change at a revision: read the change, read the config that
// governs it (the merge-base's), compile, gather the extra evidence only the configured filters need (changed
// lines, the merge-base's directories), and evaluate. Read-only. Evidence that cannot be gathered is dropped and
// named, and the checkpoints that needed it do not fire (they fail open, and the result says so).
import type { DiscernConfig } from '../../../generated/types.js';
import { canonicalJson } from '../gate/canonical-json.js';
import type { GitResult } from '../git/git.js';
import {
  directoriesAt,
  mergeBaseFrom,
  readChangeFacts,
  readChangedLines,
  readCopySources,
  type ChangedFile,
  type ChangedLines,
  type Run,
} from './change-facts.js';
import { compileCheckpoints, type CheckpointDefinition, type CheckpointMode } from './definitions.js';
import { candidates, evaluateCheckpoint, needsLines, type CheckpointOutcome } from './evaluate.js';
import { readGoverningConfig, type CheckpointDrop, type GoverningSource } from './governing-config.js';
import { definitionHash, subjectOf } from './identity.js';
import { runWhenCommand } from './when-command.js';

export interface CheckpointResult {
  id: string;
  mode: CheckpointMode;
  question: string;
  questionFile?: string;
  teach?: string;
  reference?: string;
  holds: boolean;
  matched: ChangedFile[];
  vetoedBy: string[];
  why: string;
  definitionHash: string;
  subject: string;
  definition: CheckpointDefinition;
}

export interface CheckpointEvaluation {
  revision: string;
  base: string | null;
  source: GoverningSource;
  results: CheckpointResult[];
  drops: CheckpointDrop[];
  /** Checkpoints of the working discern.toml that do not govern this change, with why. */
  ungoverned: { id: string; reason: string }[];
  /** False when the change itself could not be read: nothing was evaluated. */
  evaluated: boolean;
}

export interface EvaluateOptions {
  run: Run;
  /** A commit-ish: HEAD, or a composed commit. */
  revision: string;
  /** The trunk as git is given it (refs/heads/<trunk>). */
  trunkRef: string;
  /** The checkout's own discern.toml: it governs only when the merge-base's cannot be read. */
  workingConfig: DiscernConfig;
  /** Where the working question files are read from. */
  root: string;
  /** False: a `when` command is not run (a dry run), and its checkpoint is shown as it stands without it. */
  runWhen?: boolean;
}

export async function evaluateCheckpointsAt(options: EvaluateOptions): Promise<CheckpointEvaluation> {
  const { run } = options;
  // The governing config depends only on the merge-base: when the caller already asked for it, the config is read
  // beside the change rather than after it (the same base readChangeFacts takes from the same answer).
  const early =
    options.revision === 'HEAD' && run.headMergeBase
      ? run.headMergeBase.then((m) =>
          readGoverningConfig(run, mergeBaseFrom(m), options.workingConfig, options.root, run.mergeBaseConfig),
        )
      : undefined;
  early?.catch(() => undefined);
  // When no checkpoint governs (the merge-base's config, read beside the merge-base, defines none), there is
  // nothing to evaluate the change against: it is not read (two git processes on every done without checkpoints).
  const governedEarly = early ? await early.catch(() => undefined) : undefined;
  const nothingGoverns =
    governedEarly !== undefined && compileCheckpoints(governedEarly.config as DiscernConfig).definitions.length === 0;
  let facts;
  try {
    facts = nothingGoverns
      ? await unreadChange(run, options.revision)
      : await readChangeFacts(run, options.revision, options.trunkRef);
  } catch (error) {
    return {
      revision: options.revision,
      base: null,
      source: 'working',
      results: [],
      drops: [
        {
          kind: 'evidence_unavailable',
          reason: `the change could not be read, so no checkpoint was evaluated: ${message(error)}`,
        },
      ],
      ungoverned: [],
      evaluated: false,
    };
  }
  const governing = await (early ?? readGoverningConfig(run, facts.base, options.workingConfig, options.root));
  const drops: CheckpointDrop[] = [...governing.drops];
  const compiled = compileCheckpoints(governing.config as DiscernConfig);
  for (const issue of compiled.issues) {
    const id = idOf(issue.path);
    drops.push({
      kind: 'definition_unusable',
      ...(id !== undefined ? { checkpoint: id } : {}),
      reason: `\`${issue.path}\` ${issue.message}: it is not evaluated`,
    });
  }

  // Extra evidence, read once for every checkpoint that needs it.
  const lineReaders = compiled.definitions.filter(needsLines);
  const wanted = [
    ...new Set(lineReaders.flatMap((d) => candidates(d, facts.files, compiled.generated).map((f) => f.path))),
  ];
  let lines: Map<string, ChangedLines> | undefined;
  let linesFailed: string | undefined;
  if (wanted.length > 0) {
    try {
      lines = await readChangedLines(run, facts.from, facts.revision, wanted);
    } catch (error) {
      linesFailed = message(error);
    }
  }
  let baseDirectories: Set<string> | undefined;
  let dirsFailed: string | undefined;
  if (compiled.definitions.some((d) => d.newDirectory) && facts.files.some((f) => f.kind === 'added')) {
    try {
      baseDirectories = facts.base === null ? new Set() : await directoriesAt(run, facts.base);
    } catch (error) {
      dirsFailed = message(error);
    }
  }

  let similarSources: Map<string, string> | undefined;
  let similarFailed: string | undefined;
  if (compiled.definitions.some((d) => d.similarNewFile) && facts.files.some((f) => f.kind === 'added')) {
    try {
      similarSources = await readCopySources(run, facts.from, facts.revision);
    } catch (error) {
      similarFailed = message(error);
    }
  }

  const results: CheckpointResult[] = [];
  for (const def of compiled.definitions) {
    let question: string;
    if ('text' in def.question) question = def.question.text;
    else {
      const read = await governing.readQuestion(def.question.file);
      if (read.ok) question = read.text;
      else {
        question = `(the question in ${def.question.file} could not be read: ${read.reason})`;
        drops.push({ kind: 'question_file_unreadable', checkpoint: def.id, reason: read.reason });
      }
    }
    const hash = definitionHash(def, question);
    const missing =
      needsLines(def) && linesFailed !== undefined
        ? linesFailed
        : def.newDirectory && dirsFailed !== undefined
          ? dirsFailed
          : def.similarNewFile && similarFailed !== undefined
            ? similarFailed
            : undefined;
    const prose = {
      question,
      ...('file' in def.question ? { questionFile: def.question.file } : {}),
      ...(def.teach ? { teach: def.teach } : {}),
      ...(def.reference ? { reference: def.reference } : {}),
    };
    if (missing !== undefined) {
      drops.push({ kind: 'evidence_unavailable', checkpoint: def.id, reason: `${missing}: it is not evaluated` });
      results.push({
        id: def.id,
        mode: def.mode,
        ...prose,
        holds: false,
        matched: [],
        vetoedBy: [],
        why: 'Not evaluated: its evidence could not be read.',
        definitionHash: hash,
        subject: subjectOf([]),
        definition: def,
      });
      continue;
    }
    const filtered = evaluateCheckpoint(def, {
      files: facts.files,
      commits: facts.commits,
      generated: compiled.generated,
      ...(lines ? { lines } : {}),
      ...(baseDirectories ? { baseDirectories } : {}),
      ...(similarSources ? { similarSources } : {}),
    });
    const outcome = await askWhen(def, filtered, facts, options, drops);
    results.push({
      id: def.id,
      mode: def.mode,
      ...prose,
      holds: outcome.holds,
      matched: outcome.matched,
      vetoedBy: outcome.vetoedBy,
      why: outcome.why,
      definitionHash: hash,
      subject: subjectOf(outcome.matched),
      definition: def,
    });
  }
  return {
    revision: facts.revision,
    base: facts.base,
    source: governing.source,
    results,
    drops,
    ungoverned: ungoverned(options.workingConfig, governing.config, governing.source),
    evaluated: true,
  };
}

/**
 * The `when` command has the last word once everything else holds: exit 0 fires (on the files it names with
 * DISCERN_MATCH, when it names changed ones), exit 1 passes, anything else fails open and is dropped by name.
 */
async function askWhen(
  def: CheckpointDefinition,
  outcome: CheckpointOutcome,
  facts: { revision: string; base: string | null; files: readonly ChangedFile[] },
  options: EvaluateOptions,
  drops: CheckpointDrop[],
): Promise<CheckpointOutcome> {
  if (def.when === undefined || !outcome.holds) return outcome;
  if (options.runWhen === false)
    return {
      ...outcome,
      why: `${outcome.why.replace(/\.$/, '')}; its when command decides, and was not run (dry run).`,
    };
  const answer = await runWhenCommand({
    command: def.when,
    cwd: options.root,
    env: options.run.env,
    checkpoint: def.id,
    revision: facts.revision,
    base: facts.base,
    matched: outcome.matched.map((f) => f.path),
    ...(options.run.signal ? { signal: options.run.signal } : {}),
  });
  if (answer.kind === 'passes')
    return { ...outcome, holds: false, why: `${outcome.why.replace(/\.$/, '')}, but its when command exited 1.` };
  if (answer.kind === 'failed') {
    drops.push({ kind: 'evidence_unavailable', checkpoint: def.id, reason: `${answer.reason}: it does not fire` });
    return { ...outcome, holds: false, why: `Not fired: ${answer.reason}.` };
  }
  const byPath = new Map(facts.files.map((f) => [f.path, f]));
  const named = answer.named.flatMap((p) => {
    const file = byPath.get(p);
    return file ? [file] : [];
  });
  const matched = named.length > 0 ? named : outcome.matched;
  return {
    ...outcome,
    matched,
    why: `${outcome.why.replace(/\.$/, '')}, and its when command exited 0${named.length > 0 ? ` naming ${named.length} file${named.length === 1 ? '' : 's'}` : ''}.`,
  };
}

/** The change's place without its content, for a config that defines no checkpoint: no file or commit is listed. */
async function unreadChange(run: Run, revision: string): Promise<Awaited<ReturnType<typeof readChangeFacts>>> {
  const base = mergeBaseFrom(await (run.headMergeBase as Promise<GitResult>));
  return { revision, base, from: base ?? '', files: [], commits: 0 };
}

/** Working checkpoints added or edited on this branch: the merge-base's definitions are the ones that govern. */
function ungoverned(
  working: DiscernConfig,
  governing: Pick<DiscernConfig, 'checkpoints'>,
  source: GoverningSource,
): { id: string; reason: string }[] {
  if (source === 'working') return [];
  const out: { id: string; reason: string }[] = [];
  for (const [id, table] of Object.entries(working.checkpoints ?? {})) {
    const governed = governing.checkpoints?.[id];
    if (governed === undefined)
      out.push({ id, reason: 'added on this branch: it governs changes made after it reaches the trunk' });
    else if (canonicalJson(governed) !== canonicalJson(table))
      out.push({ id, reason: 'edited on this branch: the merge-base definition governs this change' });
  }
  return out;
}

function idOf(path: string): string | undefined {
  const match = /^checkpoints\.("(?:[^"\\]|\\.)*"|[^.]+)/.exec(path);
  if (!match) return undefined;
  const raw = match[1] ?? '';
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
