// Writes the discern.toml setup proposes, with a comment above each choice saying which fact it came from, so
// the owner can confirm or change it line by line. Pure. Whatever comes from the repository (script text, a
// Makefile target, a CI step, a name) is data: strings are escaped as TOML basic strings, and comment text is
// split into one comment line per line with its control characters shown as escapes, so no repository text can
// end a comment early and become TOML of its own.
import { VERSION } from '../../../generated/version.js';
import { KNOWN_JOB_STAGES } from '../config/jobs.js';
import type { RepositoryFacts } from './facts.js';
import { proposalFromFacts, type ProposedJob, type SetupProposal } from './proposal.js';

export const SCHEMA_LINE = '#:schema https://discern.sh/schema/v1/discern-config.schema.json';

/** The draft of a repository's facts as they stand (no recipe). */
export function draftConfig(facts: RepositoryFacts): string {
  return renderDraft(proposalFromFacts(facts));
}

export function renderDraft(proposal: SetupProposal): string {
  const lines: string[] = [
    SCHEMA_LINE,
    '# Proposed by `discern setup begin` from this repository’s own files. Every choice says why.',
    '',
  ];
  lines.push('[meta]', 'schema_version = 1', `setup_version = ${str(VERSION)}`);
  const split = proposal.splitScripts ?? [];
  if (split.length > 0)
    lines.push(
      ...comment(
        'The package scripts split into one job per part below, as they read then: doctor warns when one changes.',
      ),
      `split_scripts = [${split.map((s) => `{ file = ${str(s.file)}, script = ${str(s.script)}, text = ${str(s.text)} }`).join(', ')}]`,
    );
  lines.push('');
  lines.push('[project]', `name = ${str(proposal.project.name)}`);
  if (proposal.project.slug !== undefined) lines.push(`slug = ${str(proposal.project.slug)}`);
  lines.push(
    ...comment(`The coding agents discern is wired into: ${proposal.project.agents_why}.`),
    `agents = ${array(proposal.project.agents)}`,
    '',
  );
  lines.push('[repository]', ...comment(`${proposal.trunk.why}.`), `trunk = ${str(proposal.trunk.name)}`);
  if (proposal.branch_prefix !== undefined) lines.push(`branch_prefix = ${str(proposal.branch_prefix)}`);
  if (proposal.ensure.length > 0) {
    for (const e of proposal.ensure) lines.push(...comment(`\`${e.run}\`: ${e.why}.`));
    lines.push(`ensure = ${array(proposal.ensure.map((e) => e.run))}`);
  }
  lines.push('');
  // Known jobs are keys of [jobs]; a custom job is its own [jobs.<name>] table, which must come after them.
  const known = proposal.jobs.filter((j) => KNOWN_JOB_STAGES[j.name] !== undefined);
  const custom = proposal.jobs.filter((j) => KNOWN_JOB_STAGES[j.name] === undefined);
  lines.push('[jobs]');
  if (proposal.jobs.length === 0)
    lines.push(
      '# No test, lint or build command was found: add the commands this project is checked with, e.g.',
      '# test = "make test"',
    );
  for (const job of known) lines.push(...comment(`${job.why}.`), `${key(job.name)} = ${jobValue(job)}`);
  for (const job of custom) {
    lines.push(
      '',
      ...comment(`${job.why}.`),
      `[jobs.${key(job.name)}]`,
      `stage = ${str(job.stage)}`,
      `run = ${commands(job.run)}`,
    );
    if (job.timeout !== undefined) lines.push(`timeout = ${job.timeout}`);
    if (job.provides !== undefined && job.provides.length > 0) lines.push(`provides = ${array(job.provides)}`);
  }
  for (const scope of proposal.scopes) {
    lines.push('', ...comment(`${scope.why}.`), `[scopes.${key(scope.name)}]`, `paths = ${array(scope.paths)}`);
    if (scope.neutral) lines.push('neutral = true');
    if (scope.gate.length > 0) lines.push(`gate = ${commands(scope.gate)}`);
    if (scope.timeout !== undefined) lines.push(`timeout = ${scope.timeout}`);
  }
  return `${lines.join('\n')}\n`;
}

function jobValue(job: ProposedJob): string {
  return job.timeout === undefined ? commands(job.run) : `{ run = ${commands(job.run)}, timeout = ${job.timeout} }`;
}

function commands(run: readonly string[]): string {
  return run.length === 1 ? str(run[0] ?? '') : array(run);
}

/** A TOML basic string: JSON's escapes are TOML's, except that TOML also escapes DEL and has no lone surrogates. */
function str(value: string): string {
  return JSON.stringify(wellFormed(value))
    .replace(/\x7f/g, unicodeEscape)
    .replace(/[\u0080-\u009f]/g, unicodeEscape);
}

/** A key as TOML writes it: bare when it can be, else a quoted string (a dot in a name is not a sub-table). */
function key(name: string): string {
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : str(name);
}

/**
 * Comment lines for `text`: one `# ` line per line of it, its control characters (which TOML forbids in a
 * comment) written as \uXXXX, so the text reads the same and cannot leave the comment.
 */
function comment(text: string): string[] {
  return wellFormed(text)
    .split(/\r\n|\n|\r/)
    .map((line) => `# ${line.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, unicodeEscape)}`.trimEnd());
}

function array(values: readonly string[]): string {
  return `[${values.map(str).join(', ')}]`;
}

/** Lone surrogates (no UTF-8 for them, so no TOML either) become U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
