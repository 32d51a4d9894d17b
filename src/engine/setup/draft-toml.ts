// Writes the discern.toml setup proposes, with a comment above each choice saying which fact it came from, so
// the owner can confirm or change it line by line. Pure.
import { slugify } from '../project/slug.js';
import type { RepositoryFacts } from './facts.js';

export const SCHEMA_LINE = '#:schema https://discern.sh/schema/v1/discern-config.schema.json';

export function draftConfig(facts: RepositoryFacts): string {
  const lines: string[] = [SCHEMA_LINE, '# Proposed by `discern setup begin` from this repository’s own files. Every choice says why.', ''];
  lines.push('[meta]', 'schema_version = 1', '');
  lines.push('[project]', `name = ${str(facts.name)}`);
  const slug = slugFrom(facts.name);
  if (slug !== undefined) lines.push(`slug = ${str(slug)}`);
  lines.push('# The coding agents refresh wires discern into; add gemini, cursor or copilot if they work here too.', 'agents = ["claude_code", "codex"]', '');
  lines.push('[repository]');
  if (facts.branch) lines.push(`# The branch checked out when setup began; work lands here.`, `trunk = ${str(facts.branch)}`);
  if (facts.ensure.length > 0) {
    for (const e of facts.ensure) lines.push(`# \`${e.run}\`: ${e.why}.`);
    lines.push(`ensure = ${array(facts.ensure.map((e) => e.run))}`);
  }
  lines.push('');
  lines.push('[jobs]');
  if (facts.jobs.length === 0) lines.push('# No test, lint or build command was found: add the commands this project is checked with, e.g.', '# test = "make test"');
  for (const job of facts.jobs) {
    lines.push(`# ${job.why}.`);
    lines.push(`${job.name} = ${job.run.length === 1 ? str(job.run[0] ?? '') : array(job.run)}`);
  }
  for (const dir of facts.docs_dirs) {
    lines.push('', `# Changes only under ${dir}/ need no gate run.`, `[scopes.${dir}]`, `paths = [${str(`${dir}/**`)}]`, 'neutral = true');
  }
  return `${lines.join('\n')}\n`;
}

/** A project slug from a package or folder name: an npm scope is not part of it. */
export function slugFrom(name: string): string | undefined {
  return slugify(name.replace(/^@[^/]+\//, ''));
}

function str(value: string): string {
  return JSON.stringify(value);
}

function array(values: readonly string[]): string {
  return `[${values.map(str).join(', ')}]`;
}
