// Writes the discern.toml setup proposes, with a comment above each choice saying which fact it came from, so
// the owner can confirm or change it line by line. Pure.
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
  lines.push('[meta]', 'schema_version = 1', `setup_version = ${str(VERSION)}`, '');
  lines.push('[project]', `name = ${str(proposal.project.name)}`);
  if (proposal.project.slug !== undefined) lines.push(`slug = ${str(proposal.project.slug)}`);
  lines.push(
    `# The coding agents discern is wired into: ${proposal.project.agents_why}.`,
    `agents = ${array(proposal.project.agents)}`,
    '',
  );
  lines.push('[repository]', `# ${proposal.trunk.why}.`, `trunk = ${str(proposal.trunk.name)}`);
  if (proposal.branch_prefix !== undefined) lines.push(`branch_prefix = ${str(proposal.branch_prefix)}`);
  if (proposal.ensure.length > 0) {
    for (const e of proposal.ensure) lines.push(`# \`${e.run}\`: ${e.why}.`);
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
  for (const job of known) lines.push(`# ${job.why}.`, `${job.name} = ${jobValue(job)}`);
  for (const job of custom) {
    lines.push('', `# ${job.why}.`, `[jobs.${job.name}]`, `stage = ${str(job.stage)}`, `run = ${commands(job.run)}`);
    if (job.timeout !== undefined) lines.push(`timeout = ${job.timeout}`);
  }
  for (const scope of proposal.scopes) {
    lines.push('', `# ${scope.why}.`, `[scopes.${scope.name}]`, `paths = ${array(scope.paths)}`);
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

function str(value: string): string {
  return JSON.stringify(value);
}

function array(values: readonly string[]): string {
  return `[${values.map(str).join(', ')}]`;
}
