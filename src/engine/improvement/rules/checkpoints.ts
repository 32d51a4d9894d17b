// The checkpoints category: the project asks for judgment where a change is risky. Risky paths are recognised
// by name (migrations, CI, dependency manifests, infrastructure); a class is governed when some checkpoint
// selects one of its tracked files, by `paths` or by its `scope`'s paths. Irreversible areas want a stop
// checkpoint, which blocks until someone declares the question met or unmet.
import { compilePattern } from '../../scopes/index.js';
import type { Category, CheckpointFact, Facts, Rule } from '../types.js';
import { blocked, count, listed, verdict } from '../verdict.js';

export interface RiskyClass {
  name: string;
  /** A change here is hard to take back once it ships: a stop checkpoint fits. */
  irreversible: boolean;
  test: (path: string) => boolean;
  /** Globs a checkpoint for this class would select. */
  suggested: string[];
}

const MANIFESTS = new Set([
  'package.json',
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'Cargo.toml',
  'Cargo.lock',
  'go.mod',
  'go.sum',
  'pyproject.toml',
  'poetry.lock',
  'uv.lock',
  'Pipfile',
  'Pipfile.lock',
  'Gemfile',
  'Gemfile.lock',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'composer.json',
  'composer.lock',
  'mix.exs',
  'mix.lock',
]);

function base(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export const RISKY_CLASSES: readonly RiskyClass[] = [
  {
    name: 'migrations',
    irreversible: true,
    test: (p) => /(^|\/)(migrations?|migrate)\//i.test(p) || /(^|\/)schema\.prisma$/.test(p),
    suggested: ['/migrations/'],
  },
  {
    name: 'ci',
    irreversible: true,
    test: (p) =>
      p.startsWith('.github/workflows/') ||
      p.startsWith('.circleci/') ||
      p.startsWith('.buildkite/') ||
      ['.gitlab-ci.yml', '.travis.yml', 'Jenkinsfile', 'azure-pipelines.yml'].includes(p),
    suggested: ['.github/workflows/**'],
  },
  {
    name: 'infrastructure',
    irreversible: true,
    test: (p) =>
      /\.tf$/.test(p) ||
      /^Dockerfile/.test(base(p)) ||
      /^docker-compose[^/]*\.ya?ml$/.test(base(p)) ||
      /(^|\/)(k8s|kubernetes|helm|terraform)\//i.test(p),
    suggested: ['*.tf', 'Dockerfile'],
  },
  {
    name: 'dependencies',
    irreversible: false,
    test: (p) => MANIFESTS.has(base(p)) || /(^|\/)requirements[^/]*\.txt$/.test(p),
    suggested: ['package.json'],
  },
];

/** Each risky class present in the tracked files, with its files and the checkpoints that select any of them. Pure. */
export function riskyCoverage(facts: Facts): { cls: RiskyClass; files: string[]; governors: CheckpointFact[] }[] {
  const selectors = facts.checkpoints.list.map((c) => ({ c, selects: selector(c, facts) }));
  return RISKY_CLASSES.map((cls) => {
    const files = facts.tracked.filter(cls.test);
    return { cls, files, governors: selectors.filter((s) => files.some(s.selects)).map((s) => s.c) };
  }).filter((r) => r.files.length > 0);
}

/** Whether a checkpoint selects a path: its paths, or its scope's paths, minus its exclude_paths. */
function selector(c: CheckpointFact, facts: Facts): (path: string) => boolean {
  const scopePaths = c.scope !== undefined ? (facts.config.scopes?.[c.scope]?.paths ?? []) : [];
  const include = [...c.paths, ...scopePaths].map(compilePattern).flatMap((m) => (m.ok ? [m] : []));
  const exclude = c.exclude_paths.map(compilePattern).flatMap((m) => (m.ok ? [m] : []));
  return (path) => include.some((m) => m.test(path)) && !exclude.some((m) => m.test(path));
}

const READ_CONFIG = (facts: Facts): string => `${facts.configFile} [checkpoints]`;

const configured: Rule = {
  id: 'checkpoints.configured',
  title: 'The project asks for judgment somewhere: at least one checkpoint',
  severity: 3,
  kind: 'decide',
  evaluate(facts) {
    const list = facts.checkpoints.list;
    const read = [READ_CONFIG(facts)];
    const counts = { checkpoints: list.length, unreadable: facts.checkpoints.unreadable.length };
    if (list.length === 0) {
      const risky = riskyCoverage(facts)[0];
      return verdict(
        'fail',
        `No checkpoint${facts.checkpoints.unreadable.length > 0 ? ` can be read (${listed(facts.checkpoints.unreadable, 2)})` : ''}: every change lands on its gate alone, whatever it touches.`,
        {
          read,
          counts,
          fix: `Add a checkpoint to discern.toml for the riskiest area${risky ? ` (${risky.cls.name}: ${listed(risky.files, 2)})` : ''}: \`[checkpoints.${risky?.cls.name ?? 'review'}]\` with \`paths = ${JSON.stringify(risky?.cls.suggested ?? ['src/**'])}\` and a \`question\` the change must answer.`,
          against: facts.configFile,
        },
      );
    }
    return verdict(
      'pass',
      `${count(list.length, 'checkpoint')}: ${listed(
        list.map((c) => `${c.id} (${c.mode})`),
        4,
      )}.`,
      { read, counts },
    );
  },
};

const riskyPaths: Rule = {
  id: 'checkpoints.risky-paths',
  title: 'Risky paths (migrations, CI, dependencies, infrastructure) are governed by a checkpoint',
  severity: 3,
  kind: 'decide',
  evaluate(facts) {
    const coverage = riskyCoverage(facts);
    const read = ['tracked files', READ_CONFIG(facts)];
    const ungoverned = coverage.filter((c) => c.governors.length === 0);
    const counts = { risky_classes: coverage.length, ungoverned: ungoverned.length };
    if (coverage.length === 0)
      return verdict(
        'pass',
        'No migrations, CI configuration, dependency manifests or infrastructure files are tracked.',
        { read, counts },
      );
    if (facts.checkpoints.list.length === 0)
      return blocked(
        'checkpoints.configured',
        `No checkpoint selects ${listed(
          ungoverned.map((c) => `${c.cls.name} (${listed(c.files, 2)})`),
          4,
        )}: there are no checkpoints.`,
        read,
      );
    if (ungoverned.length === 0)
      return verdict(
        'pass',
        `Every risky area is governed: ${listed(
          coverage.map((c) => `${c.cls.name} by ${c.governors.map((g) => g.id).join(', ')}`),
          4,
        )}.`,
        { read, counts },
      );
    const first = ungoverned[0];
    return verdict(
      ungoverned.length === coverage.length ? 'fail' : 'partial',
      `No checkpoint selects ${listed(
        ungoverned.map((c) => `${c.cls.name} (${listed(c.files, 2)})`),
        4,
      )}.`,
      {
        read,
        counts,
        fix: `Add \`[checkpoints.${first?.cls.name ?? 'risky'}]\` to discern.toml with \`paths = ${JSON.stringify(first?.cls.suggested ?? [])}\`${first?.cls.irreversible ? ', `mode = "stop"`' : ''} and the \`question\` a change there must answer.`,
        against: facts.configFile,
      },
    );
  },
};

const questions: Rule = {
  id: 'checkpoints.questions',
  title: 'Every checkpoint asks a question',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const list = facts.checkpoints.list;
    const read = [READ_CONFIG(facts), ...list.flatMap((c) => (c.question_file !== undefined ? [c.question_file] : []))];
    if (list.length === 0)
      return blocked('checkpoints.configured', 'There are no checkpoints to ask a question.', read);
    const silent = list.filter(
      (c) => !((c.question ?? '').trim().length > 0 || (c.question_file !== undefined && c.question_file_ok === true)),
    );
    const counts = { checkpoints: list.length, without_question: silent.length };
    if (silent.length === 0)
      return verdict('pass', `All ${count(list.length, 'checkpoint')} ask a question.`, { read, counts });
    const first = silent[0];
    return verdict(
      silent.length === list.length ? 'fail' : 'partial',
      `${listed(silent.map((c) => (c.question_file !== undefined ? `${c.id} (question_file ${c.question_file} is missing or empty)` : c.id)))} ask${silent.length === 1 ? 's' : ''} nothing: whoever meets ${silent.length === 1 ? 'it' : 'them'} cannot tell what to check.`,
      {
        read,
        counts,
        fix: `Give [checkpoints.${first?.id ?? ''}] a \`question\` (or a \`question_file\` that exists): what must be true before such a change lands.`,
        against: facts.configFile,
      },
    );
  },
};

const stopForIrreversible: Rule = {
  id: 'checkpoints.stop-irreversible',
  title: 'Irreversible areas (migrations, CI, infrastructure) have a stop checkpoint',
  severity: 2,
  kind: 'decide',
  evaluate(facts) {
    const read = ['tracked files', READ_CONFIG(facts)];
    const irreversible = riskyCoverage(facts).filter((c) => c.cls.irreversible);
    if (irreversible.length === 0)
      return verdict('pass', 'No migrations, CI configuration or infrastructure files are tracked.', {
        read,
        counts: { irreversible_classes: 0 },
      });
    if (facts.checkpoints.list.length === 0)
      return blocked('checkpoints.configured', 'There are no checkpoints whose mode could be stop.', read);
    const advisory = irreversible.filter((c) => !c.governors.some((g) => g.mode === 'stop'));
    const counts = { irreversible_classes: irreversible.length, without_stop: advisory.length };
    if (advisory.length === 0)
      return verdict(
        'pass',
        `${listed(irreversible.map((c) => c.cls.name))} ${irreversible.length === 1 ? 'has' : 'have'} a stop checkpoint.`,
        { read, counts },
      );
    const first = advisory[0];
    const advising = first?.governors[0];
    return verdict(
      advisory.length === irreversible.length ? 'fail' : 'partial',
      `No stop checkpoint for ${listed(advisory.map((c) => `${c.cls.name}${c.governors.length > 0 ? ` (only advise: ${c.governors.map((g) => g.id).join(', ')})` : ''}`))}.`,
      {
        read,
        counts,
        fix:
          advising !== undefined
            ? `Set \`mode = "stop"\` in [checkpoints.${advising.id}] (stop is the default; advise only reports).`
            : `Add \`[checkpoints.${first?.cls.name ?? ''}]\` with \`paths = ${JSON.stringify(first?.cls.suggested ?? [])}\` and a \`question\`; its mode defaults to stop.`,
        against: facts.configFile,
      },
    );
  },
};

export const CHECKPOINTS: Category = {
  name: 'checkpoints',
  title: 'Checkpoints',
  weight: 2,
  rules: [configured, riskyPaths, questions, stopForIrreversible],
};
