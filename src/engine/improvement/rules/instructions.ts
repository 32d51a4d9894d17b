// The instructions category: the project tells its agents something of its own, the instruction files agents
// read are compiled from it, and the project's traps are written down somewhere an agent can find them.
import { INSTRUCTION_FILES } from '../../refresh/agents.js';
import type { Category, Rule } from '../types.js';
import { count, listed, verdict } from '../verdict.js';

/** Fewer characters than this of the project's own text is a placeholder, not instructions. */
const SUBSTANTIAL_CHARS = 200;
/** A gotchas document shorter than this holds at most a heading. */
const GOTCHAS_MIN_BYTES = 80;

const sources: Rule = {
  id: 'instructions.sources',
  title: "The project's own instructions exist and say something",
  severity: 3,
  kind: 'fix',
  evaluate(facts) {
    const r = facts.refresh;
    const configured = facts.config.instructions?.sources;
    const read = [`${facts.configFile} [instructions] sources`, ...r.sources];
    const problems = r.errors.filter((e) => e.area === 'instructions');
    const counts = { sources: r.sources.length, characters: r.sourceChars, problems: problems.length };
    const first = configured?.[0] ?? 'discern/instructions.md';
    if (problems.length > 0)
      return verdict(
        'fail',
        `${count(problems.length, 'instruction source problem')}: ${listed(
          problems.map((p) => p.message),
          2,
        )}`,
        {
          read,
          counts,
          fix: `Fix ${problems[0]?.path ?? first} as the message says.`,
          against: problems[0]?.path ?? first,
        },
      );
    if (r.sources.length === 0) {
      return verdict(
        'fail',
        `No instruction source exists (${configured ? `[instructions] sources: ${configured.join(', ')}` : 'the default, discern/instructions.md, is absent'}): agents get only discern's built-in text.`,
        {
          read,
          counts,
          fix: `Write ${first}: how to build and test, where things live, what not to touch. \`discern refresh\` compiles it into CLAUDE.md, AGENTS.md and GEMINI.md.`,
          against: first,
        },
      );
    }
    if (r.sourceChars < SUBSTANTIAL_CHARS) {
      return verdict(
        'partial',
        `${listed(r.sources)} hold${r.sources.length === 1 ? 's' : ''} ${r.sourceChars} characters of the project's own text.`,
        {
          read,
          counts,
          fix: `Add to ${r.sources[0] ?? first}: how to build and test, where things live, what not to touch.`,
          against: r.sources[0] ?? first,
        },
      );
    }
    return verdict(
      'pass',
      `${count(r.sources.length, 'source')} with ${r.sourceChars} characters of the project's own text: ${listed(r.sources)}.`,
      { read, counts },
    );
  },
};

const current: Rule = {
  id: 'instructions.current',
  title: 'The instruction files agents read are current',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const r = facts.refresh;
    const read = ['refresh plan', ...INSTRUCTION_FILES];
    if (r.failed !== undefined)
      return verdict('fail', `Refresh cannot plan the instruction files: ${r.failed}.`, {
        read,
        fix: 'Run `discern refresh --dry-run` and fix the file it names.',
      });
    const stale = r.targets.filter((t) => t.kind === 'instructions');
    const unplannable = r.errors.filter(
      (e) => e.area === 'instructions' && (INSTRUCTION_FILES as readonly string[]).includes(e.path),
    );
    const counts = { stale: stale.length, errors: unplannable.length };
    if (unplannable.length > 0)
      return verdict(
        'fail',
        `${listed(
          unplannable.map((e) => e.message),
          2,
        )}`,
        {
          read,
          counts,
          fix: `Fix ${unplannable[0]?.path ?? ''} as the message says, then run \`discern refresh\`.`,
          against: unplannable[0]?.path ?? '',
        },
      );
    if (stale.length === 0)
      return verdict('pass', `Refresh would change no instruction file (agents: ${r.agents.join(', ')}).`, {
        read,
        counts,
      });
    const created = stale.filter((t) => t.action === 'create').length;
    return verdict(
      created === stale.length ? 'fail' : 'partial',
      `Refresh would ${listed(stale.map((t) => `${t.action === 'create' ? 'create' : t.removes ? 'strip' : 'update'} ${t.path}`))}.`,
      {
        read,
        counts,
        fix: 'Run `discern refresh` and commit what it writes.',
        against: stale[0]?.path ?? '',
      },
    );
  },
};

const gotchas: Rule = {
  id: 'instructions.gotchas',
  title: "The project's traps are written down",
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const candidate = facts.instructions.gotchas;
    const read = [candidate?.configured ? `${facts.configFile} [project] gotchas_doc` : 'tracked files named *gotcha*'];
    const where = `${facts.map.dir}/gotchas.md`;
    if (candidate === undefined) {
      return verdict('fail', 'No gotchas document: a trap one agent hit is hit again by the next.', {
        read,
        fix: `Write ${where}: one line per trap (what goes wrong, what to do instead), and link it from your instructions.`,
        against: where,
      });
    }
    read.push(candidate.path);
    const bytes = candidate.bytes;
    if (bytes === undefined)
      return verdict('fail', `The configured gotchas document ${candidate.path} does not exist.`, {
        read,
        fix: `Write ${candidate.path}: one line per trap.`,
        against: candidate.path,
      });
    if (bytes < GOTCHAS_MIN_BYTES)
      return verdict('partial', `${candidate.path} holds ${bytes} bytes: at most a heading.`, {
        read,
        counts: { bytes },
        fix: `Add the project's traps to ${candidate.path}, one a line.`,
        against: candidate.path,
      });
    return verdict('pass', `${candidate.path} (${bytes} bytes).`, { read, counts: { bytes } });
  },
};

export const INSTRUCTIONS: Category = {
  name: 'instructions',
  title: 'Instructions',
  weight: 2,
  rules: [sources, current, gotchas],
};
