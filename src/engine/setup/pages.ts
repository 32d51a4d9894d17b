// The pages of a setup — what the owner confirms, one concern a page — and the owner moments they carry. Each
// moment is written once, in the spine, and pages refer to it by id, so every presentation (JSON, Markdown, the
// terminal) shares one text. Pure: the pages follow from the proposal as it stands.
import type { DiscernOwnerMoment, DiscernSetupPage } from '../../../generated/types.js';
import type { ProposedJob, SetupProposal } from './proposal.js';

export interface SetupBook {
  pages: DiscernSetupPage[];
  moments: DiscernOwnerMoment[];
}

export interface PageContext {
  root: string;
  branch: string;
}

// What answers a moment, said as it happens: discern asks nothing itself and setup done does not wait. The owner
// keeps or edits the draft on the setup branch; setup done proves whatever the branch holds, and setup accept,
// the owner's to run, lands it — that call is the answer.
const BEFORE_DONE =
  '`discern setup accept`: the owner keeps or edits the draft on the setup branch (setup done proves what it holds), and landing it is the answer';
const BEFORE_ACCEPT = '`discern setup accept`: running it lands the setup; not running it waits';
const AGENTS = ['claude_code', 'codex', 'gemini', 'cursor', 'copilot'];

export function setupBook(proposal: SetupProposal, context: PageContext): SetupBook {
  const moments: DiscernOwnerMoment[] = [];
  const pages: Omit<DiscernSetupPage, 'number'>[] = [];
  const moment = (m: Omit<DiscernOwnerMoment, 'phase'> & { phase?: DiscernOwnerMoment['phase'] }): string => {
    moments.push({ phase: 'begun', ...m });
    return m.id;
  };
  const edit = `Change it in \`discern.toml\` on the \`${context.branch}\` branch and commit.`;

  const p = proposal.project;
  pages.push({
    title: 'Trunk and identity',
    body: lines(
      `Work lands on **\`${proposal.trunk.name}\`** — ${proposal.trunk.why}.`,
      '',
      `The project is **${p.name}**${p.slug !== undefined ? ` (slug \`${p.slug}\`, used in worktree and branch names)` : ''}. Agents' branches start with \`${proposal.branch_prefix ?? 'agent/'}\`.`,
      '',
      `Setup's own commit of the draft is on \`${context.branch}\`; nothing reaches \`${proposal.trunk.name}\` until \`discern setup accept\`. ${edit}`,
    ),
    owner_moments: [
      moment({
        id: 'trunk',
        kind: 'confirm',
        purpose: `Confirm that proven work lands on \`${proposal.trunk.name}\`.`,
        recommendation: `Keep \`${proposal.trunk.name}\`: ${proposal.trunk.why}.`,
        options: ['keep', 'change'],
        wait_boundary: BEFORE_DONE,
        relay_protected: true,
      }),
      moment({
        id: 'identity',
        kind: 'confirm',
        purpose: 'Confirm the project name and slug.',
        recommendation: `Keep ${p.name}${p.slug !== undefined ? ` / \`${p.slug}\`` : ''}.`,
        options: ['keep', 'change'],
        wait_boundary: BEFORE_DONE,
        relay_protected: false,
      }),
    ],
  });

  pages.push({
    title: 'Ensure commands',
    body:
      proposal.ensure.length === 0
        ? lines(
            'No ensure command is proposed: nothing was found that installs dependencies.',
            '',
            `Ensure commands make a fresh worktree usable (installing dependencies, say); \`discern start\` runs them in each new worktree and after landing. Add them as \`[repository] ensure\` if the project needs them. ${edit}`,
          )
        : lines(
            'These run, in order, in each new worktree `discern start` makes, and after update and landing. Each must be safe to run again:',
            '',
            ...proposal.ensure.map((e) => `- \`${e.run}\` — ${e.why}.`),
            '',
            `Try them here: ${proposal.ensure.map((e) => `\`${e.run}\``).join(', then ')}. ${edit}`,
          ),
    owner_moments: [
      moment({
        id: 'ensure',
        kind: 'confirm',
        purpose: 'Confirm what makes a fresh worktree usable.',
        recommendation:
          proposal.ensure.length === 0
            ? 'Add an install command if the project has dependencies; none is fine otherwise.'
            : 'Keep them if they install what the jobs need.',
        options: ['keep', 'change'],
        wait_boundary: BEFORE_DONE,
        relay_protected: false,
      }),
    ],
  });

  if (proposal.jobs.length === 0) {
    pages.push({
      title: 'Jobs',
      body: lines(
        'No job is proposed: no test, lint or build command was found in the project’s files.',
        '',
        `The gate runs the project’s own commands; without one it proves nothing. Add at least \`[jobs] test\` (for example \`test = "make test"\`). ${edit}`,
      ),
      owner_moments: [
        moment({
          id: 'jobs',
          kind: 'choose',
          purpose: 'Name the commands the project is checked with.',
          recommendation: 'Add the command the project’s tests run with as [jobs] test.',
          options: ['add'],
          wait_boundary: BEFORE_DONE,
          relay_protected: false,
        }),
      ],
    });
  }
  for (const job of proposal.jobs) {
    pages.push({
      title: `Job \`${job.name}\``,
      body: jobBody(job, context, edit),
      owner_moments: [
        moment({
          id: `job:${job.name}`,
          kind: 'confirm',
          purpose: `Confirm that the gate runs \`${job.name}\` as proposed.`,
          recommendation: `Keep it if \`${job.run.join(' && ')}\` passes here today.`,
          options: ['keep', 'change', 'remove'],
          wait_boundary: BEFORE_DONE,
          relay_protected: false,
        }),
      ],
    });
  }

  pages.push({
    title: 'Scopes',
    body:
      proposal.scopes.length === 0
        ? lines(
            'No scope is proposed. A scope names a set of paths; a change only inside neutral scopes (documentation, say) needs no gate run. None is needed to begin.',
            '',
            edit,
          )
        : lines(
            ...proposal.scopes.map(
              (s) =>
                `- **${s.name}**: ${s.paths.map((x) => `\`${x}\``).join(', ')}${s.neutral ? '; neutral (a change only here needs no gate run)' : ''}${s.gate.length > 0 ? `; gated by ${s.gate.map((g) => `\`${g}\``).join(', ')}` : ''}. Why: ${s.why}.`,
            ),
            '',
            `\`discern impact\` shows which scopes a change touches. ${edit}`,
          ),
    owner_moments: [
      moment({
        id: 'scopes',
        kind: 'confirm',
        purpose: 'Confirm which paths count as neutral or get their own gate.',
        recommendation:
          proposal.scopes.length === 0
            ? 'Begin without scopes; add them when a part of the tree needs its own rules.'
            : 'Keep them.',
        options: ['keep', 'change'],
        wait_boundary: BEFORE_DONE,
        relay_protected: false,
      }),
    ],
  });

  pages.push({
    title: 'Agents, then proof and landing',
    body: lines(
      `discern wires itself into these coding agents: ${p.agents.map((a) => `\`${a}\``).join(', ')} — ${p.agents_why}.`,
      '',
      'What is left:',
      '',
      '1. `discern setup verify` checks the draft: its schema, each command, every pattern and the trunk, with line numbers.',
      '2. Commit any change to `discern.toml`; `discern setup done` runs doctor’s checks and the first gate on the committed tip, and returns Proof.',
      `3. \`discern setup accept\` lands the proven branch on \`${proposal.trunk.name}\` (a fast-forward), writes the Proof note and says how each agent reconnects.`,
      '',
      'Until it lands, the work loop (start, prepare, test, done, update, await, accept) answers `setup_unfinished`.',
    ),
    owner_moments: [
      moment({
        id: 'agents',
        kind: 'choose',
        purpose: 'Choose the coding agents that work in this project.',
        recommendation: `${p.agents.join(', ')}: ${p.agents_why}.`,
        options: AGENTS,
        wait_boundary: BEFORE_DONE,
        relay_protected: true,
      }),
      moment({
        id: 'land',
        kind: 'confirm',
        phase: 'done',
        purpose: `Land the proven discern.toml on \`${proposal.trunk.name}\`.`,
        recommendation: 'Land it once setup done is green.',
        options: ['land', 'wait'],
        wait_boundary: BEFORE_ACCEPT,
        relay_protected: true,
      }),
    ],
  });
  return { pages: pages.map((page, i) => ({ number: i + 1, ...page })), moments };
}

function jobBody(job: ProposedJob, context: PageContext, edit: string): string {
  const stage = {
    fix: 'fix (runs first, one job at a time; it may rewrite files)',
    build: 'build',
    check: 'check (beside the tests)',
    test: 'test',
  }[job.stage];
  return lines(
    `Stage: ${stage}.${job.provides !== undefined && job.provides.length > 0 ? ` It is the project's ${job.provides.join(' and ')} (provides).` : ''}`,
    '',
    `Runs${job.run.length > 1 ? ', in order' : ''}:`,
    '',
    ...job.run.map((r) => `    ${r}`),
    '',
    `Why: ${job.why}.`,
    '',
    `Try it from \`${context.root}\`: ${job.run.map((r) => `\`${r}\``).join(', then ')}. It should pass on the tree as it is now: the first gate runs it.${job.timeout !== undefined ? ` Each command may run ${job.timeout === 0 ? 'without a time limit' : `${job.timeout} s`}.` : ''} ${edit}`,
  );
}

function lines(...parts: string[]): string {
  return `${parts.join('\n')}\n`;
}
