// The audit's rules, scoring and ranking on crafted facts: a healthy project passes every rule; breaking one
// thing makes exactly the expected rule partial or fail; blocked rules are not ranked; ranking is
// deterministic; checkpoints are read loosely from a parsed config; the map's lag is read from one git log.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CATEGORIES, CATEGORY_NAMES } from '../../../src/engine/improvement/categories.js';
import { checkpointFacts } from '../../../src/engine/improvement/gather.js';
import { parseCommits, regionLag } from '../../../src/engine/improvement/map-lag.js';
import { audit, rank, evaluateCategory } from '../../../src/engine/improvement/score.js';
import type { Facts, RuleStatus } from '../../../src/engine/improvement/types.js';
import { daysAgo, healthyFacts, NOW } from './facts.js';

function statusOf(facts: Facts, id: string): RuleStatus {
  for (const category of CATEGORIES) {
    const rule = category.rules.find((r) => r.id === id);
    if (rule) return rule.evaluate(facts).status;
  }
  throw new Error(`no rule ${id}`);
}

function broken(mutate: (f: Facts) => void): Facts {
  const facts = healthyFacts();
  mutate(facts);
  return facts;
}

describe('a healthy project', () => {
  it('passes every rule and scores 100 with nothing to do', () => {
    const facts = healthyFacts();
    const failing = CATEGORIES.flatMap((c) => c.rules.map((r) => ({ id: r.id, v: r.evaluate(facts) }))).filter(
      (x) => x.v.status !== 'pass',
    );
    assert.deepEqual(
      failing.map((f) => `${f.id}: ${f.v.detail}`),
      [],
    );
    const result = audit(CATEGORIES, facts);
    assert.equal(result.score, 100);
    assert.deepEqual(result.weak, []);
    assert.equal(result.next, undefined);
    assert.deepEqual(result.recommendations, []);
  });
  it('has at least three rules in each of the eight categories, with unique ids', () => {
    assert.deepEqual(CATEGORY_NAMES, [
      'gate',
      'setup',
      'instructions',
      'map',
      'worktrees',
      'standards',
      'checkpoints',
      'skills',
    ]);
    for (const c of CATEGORIES) assert.ok(c.rules.length >= 3, c.name);
    const ids = CATEGORIES.flatMap((c) => c.rules.map((r) => r.id));
    assert.equal(new Set(ids).size, ids.length);
    for (const c of CATEGORIES) for (const r of c.rules) assert.ok(r.id.startsWith(`${c.name}.`), r.id);
  });
});

// [rule, what is broken, the change, the status it must give]
const CASES: [string, string, (f: Facts) => void, RuleStatus][] = [
  // gate
  [
    'gate.stages',
    'two known jobs missing',
    (f) => {
      delete f.config.jobs?.format;
      delete f.config.jobs?.lint;
    },
    'partial',
  ],
  [
    'gate.stages',
    'no jobs at all',
    (f) => {
      f.config.jobs = {};
    },
    'fail',
  ],
  [
    'gate.stages',
    'a job set to ":" declares it does not apply',
    (f) => {
      f.config.jobs = { ...f.config.jobs, format: ':' };
    },
    'pass',
  ],
  [
    'gate.stages',
    'a custom check job that provides lint covers it',
    (f) => {
      delete f.config.jobs?.lint;
      f.config.jobs = {
        ...f.config.jobs,
        clippy: { stage: 'check', run: 'cargo clippy', provides: ['lint'] },
      } as NonNullable<typeof f.config.jobs>;
    },
    'pass',
  ],
  [
    'gate.stages',
    'a custom check job that does not say it provides lint leaves lint missing',
    (f) => {
      delete f.config.jobs?.lint;
      delete f.config.jobs?.format;
      f.config.jobs = { ...f.config.jobs, clippy: { stage: 'check', run: 'cargo clippy' } } as NonNullable<
        typeof f.config.jobs
      >;
    },
    'partial',
  ],
  [
    'gate.stages',
    '[assurance] not_applicable accounts for format',
    (f) => {
      delete f.config.jobs?.format;
      f.config.assurance = { not_applicable: ['format'] };
    },
    'pass',
  ],
  [
    'gate.green-head',
    'the last run on HEAD was red',
    (f) => {
      f.gate.lastRun = { commit: f.head.commit ?? '', verdict: 'red', failed_stage: 'test', at: daysAgo(0) };
    },
    'fail',
  ],
  [
    'gate.green-head',
    'Proof is for an older commit',
    (f) => {
      f.gate.proof.commit = 'b'.repeat(40);
      delete f.gate.lastRun;
    },
    'partial',
  ],
  [
    'gate.green-head',
    'uncommitted changes since the Proof',
    (f) => {
      f.head.clean = false;
    },
    'partial',
  ],
  [
    'gate.green-head',
    'Proof under another config',
    (f) => {
      f.gate.proof.current_config = false;
    },
    'partial',
  ],
  [
    'gate.green-head',
    'nothing recorded',
    (f) => {
      f.gate.proof = { state: 'missing' };
      delete f.gate.lastRun;
    },
    'fail',
  ],
  [
    'gate.green-head',
    'no commit yet',
    (f) => {
      f.head.commit = null;
    },
    'fail',
  ],
  [
    'gate.timeouts',
    'a job with no timeout',
    (f) => {
      f.config.jobs = { ...f.config.jobs, test: { run: 'vitest', timeout: 0 } };
    },
    'partial',
  ],
  [
    'gate.timeouts',
    'a job near its timeout',
    (f) => {
      f.gate.proof.producers = [{ label: 'test', outcome: 'ok', duration_ms: 600_000 }];
    },
    'partial',
  ],
  [
    'gate.timeouts',
    'every job unbounded',
    (f) => {
      f.config.gate = { timeout: 0 };
      f.config.jobs = { test: 'vitest' };
    },
    'fail',
  ],
  [
    'gate.scopes',
    'only code scopes',
    (f) => {
      f.config.scopes = { src: { paths: ['src/**'] } };
    },
    'partial',
  ],
  [
    'gate.scopes',
    'no scopes',
    (f) => {
      delete f.config.scopes;
    },
    'fail',
  ],
  [
    'gate.journal',
    'a run died unfinished',
    (f) => {
      f.gate.operations.push({ handle: 'R1-EEEE-EEEE-EE', verb: 'done', started_at: daysAgo(0), abandoned: true });
    },
    'partial',
  ],
  [
    'gate.journal',
    'most runs failed',
    (f) => {
      for (const o of f.gate.operations) o.outcome = 'failed';
    },
    'fail',
  ],
  [
    'gate.journal',
    'no runs at all',
    (f) => {
      f.gate.operations = [];
    },
    'pass',
  ],
  [
    'gate.journal',
    'one failed run is not a trend',
    (f) => {
      f.gate.operations = [
        { handle: 'R1-FFFF-FFFF-FF', verb: 'done', started_at: daysAgo(0), outcome: 'failed', abandoned: false },
      ];
    },
    'partial',
  ],
  // setup
  [
    'setup.finished',
    'a setup is begun',
    (f) => {
      f.setup.unfinished = { phase: 'begun', branch: 'discern/setup', next: 'discern setup step 1' };
    },
    'fail',
  ],
  [
    'setup.finished',
    'the setup state cannot be read',
    (f) => {
      f.setup.stateUnreadable = 'damaged';
    },
    'partial',
  ],
  [
    'setup.config-check',
    'a command does not resolve',
    (f) => {
      f.setup.configWarnings = [{ path: 'jobs.lint', message: 'eslint not found' }];
    },
    'partial',
  ],
  [
    'setup.config-check',
    'a glob does not compile',
    (f) => {
      f.setup.configErrors = [{ path: 'scopes.src.paths.0', message: 'bad glob' }];
    },
    'fail',
  ],
  [
    'setup.schema-version',
    'no schema_version',
    (f) => {
      delete f.setup.schemaVersion;
    },
    'partial',
  ],
  [
    'setup.schema-version',
    'an older schema_version',
    (f) => {
      f.setup.schemaVersion = 0;
    },
    'fail',
  ],
  [
    'setup.identity',
    'no slug',
    (f) => {
      f.config.project = { name: 'Acme' };
    },
    'partial',
  ],
  [
    'setup.identity',
    'no [project]',
    (f) => {
      delete f.config.project;
    },
    'fail',
  ],
  [
    'setup.agents-wired',
    'an MCP file to update',
    (f) => {
      f.refresh.targets = [{ path: '.mcp.json', kind: 'mcp', action: 'update', removes: false }];
    },
    'partial',
  ],
  [
    'setup.agents-wired',
    'nothing wired yet',
    (f) => {
      f.refresh.targets = [
        { path: '.mcp.json', kind: 'mcp', action: 'create', removes: false },
        { path: '.claude/settings.json', kind: 'hooks', action: 'create', removes: false },
      ];
    },
    'fail',
  ],
  [
    'setup.agents-wired',
    'a settings file that cannot be parsed',
    (f) => {
      f.refresh.errors = [{ path: '.mcp.json', message: 'not JSON', area: 'wiring' }];
    },
    'fail',
  ],
  // instructions
  [
    'instructions.sources',
    'a placeholder source',
    (f) => {
      f.refresh.sourceChars = 40;
    },
    'partial',
  ],
  [
    'instructions.sources',
    'no source',
    (f) => {
      f.refresh.sources = [];
      f.refresh.sourceChars = 0;
    },
    'fail',
  ],
  [
    'instructions.sources',
    'a named source that does not exist',
    (f) => {
      f.refresh.errors = [
        {
          path: 'discern.toml',
          message: '[instructions] sources names x.md, which does not exist.',
          area: 'instructions',
        },
      ];
    },
    'fail',
  ],
  [
    'instructions.current',
    'one instruction file out of date',
    (f) => {
      f.refresh.targets = [{ path: 'AGENTS.md', kind: 'instructions', action: 'update', removes: false }];
    },
    'partial',
  ],
  [
    'instructions.current',
    'never compiled',
    (f) => {
      f.refresh.targets = [{ path: 'CLAUDE.md', kind: 'instructions', action: 'create', removes: false }];
    },
    'fail',
  ],
  [
    'instructions.gotchas',
    'a heading only',
    (f) => {
      f.instructions.gotchas = { path: 'GOTCHAS.md', configured: false, bytes: 12 };
    },
    'partial',
  ],
  [
    'instructions.gotchas',
    'none',
    (f) => {
      f.instructions = {};
    },
    'fail',
  ],
  [
    'instructions.gotchas',
    'configured and missing',
    (f) => {
      f.instructions.gotchas = { path: 'docs/gotchas.md', configured: true };
    },
    'fail',
  ],
  // map
  [
    'map.pages',
    'two pages',
    (f) => {
      f.map.pages = f.map.pages.slice(0, 2);
    },
    'partial',
  ],
  [
    'map.pages',
    'no map',
    (f) => {
      f.map.pages = [];
      f.map.exists = false;
    },
    'fail',
  ],
  [
    'map.links',
    'a broken link',
    (f) => {
      f.map.brokenLinks = [{ page: 'discern/map/10-area/a.md', line: 3, target: 'gone.md' }];
    },
    'fail',
  ],
  [
    'map.links',
    'no pages (blocked)',
    (f) => {
      f.map.pages = [];
    },
    'fail',
  ],
  [
    'map.descriptions',
    'one page of four without a description',
    (f) => {
      delete (f.map.pages[0] as { description?: string }).description;
    },
    'partial',
  ],
  [
    'map.descriptions',
    'no front matter anywhere',
    (f) => {
      for (const p of f.map.pages) p.has_front_matter = false;
    },
    'fail',
  ],
  [
    'map.descriptions',
    'decision records need none',
    (f) => {
      f.map.pages.push({ path: 'discern/map/decisions/0001-first.md', has_front_matter: false });
    },
    'pass',
  ],
  [
    'map.decisions',
    'no records',
    (f) => {
      delete f.map.decisions;
    },
    'partial',
  ],
  [
    'map.decisions',
    'a number used twice',
    (f) => {
      f.map.decisions?.push({ number: '0002', file: '0002-again.md' });
    },
    'fail',
  ],
  [
    'map.decisions',
    'the index is stale',
    (f) => {
      f.refresh.targets = [
        { path: 'discern/map/decisions/README.md', kind: 'adr-index', action: 'update', removes: false },
      ];
    },
    'fail',
  ],
  [
    'map.fresh',
    'one region of two lags',
    (f) => {
      f.map.regions = [
        { name: 'area', page_count: 2, code_changes_since: 9 },
        { name: 'other', page_count: 2, code_changes_since: 0 },
      ];
    },
    'partial',
  ],
  [
    'map.fresh',
    'every region lags',
    (f) => {
      f.map.regions = [{ name: 'area', page_count: 4, code_changes_since: 12, lower_bound: true }];
    },
    'fail',
  ],
  // worktrees
  [
    'worktrees.healthy',
    'a worktree whose folder is gone',
    (f) => {
      f.worktrees.linked = [{ path: '/x/gone', branch: 'agent/gone', broken: 'the worktree directory is missing' }];
    },
    'fail',
  ],
  [
    'worktrees.healthy',
    'a locked worktree is not broken',
    (f) => {
      f.worktrees.linked = [{ path: '/x/kept', branch: 'agent/kept', locked: 'on a usb disk' }];
    },
    'pass',
  ],
  [
    'worktrees.stale-efforts',
    'one old effort of two',
    (f) => {
      f.worktrees.unlanded.push({ branch: 'agent/old', committed_at: Math.floor((NOW - 40 * 86_400_000) / 1000) });
    },
    'partial',
  ],
  [
    'worktrees.stale-efforts',
    'the only effort is old',
    (f) => {
      f.worktrees.unlanded = [{ branch: 'agent/old', committed_at: Math.floor((NOW - 40 * 86_400_000) / 1000) }];
    },
    'fail',
  ],
  [
    'worktrees.queue',
    'a submission waiting five days',
    (f) => {
      f.worktrees.submissions = [{ effort: 'x', branch: 'agent/x', submitted_at: daysAgo(5) }];
    },
    'partial',
  ],
  [
    'worktrees.queue',
    'a submission whose landing failed',
    (f) => {
      f.worktrees.submissions = [{ effort: 'x', branch: 'agent/x', submitted_at: daysAgo(0), failure: 'conflict' }];
    },
    'partial',
  ],
  [
    'worktrees.queue',
    'an interrupted landing',
    (f) => {
      f.worktrees.transactions = [{ effort: 'x', step: 'composed', started_at: daysAgo(1) }];
    },
    'fail',
  ],
  [
    'worktrees.queue',
    'a landing in progress is not interrupted',
    (f) => {
      f.worktrees.transactions = [{ effort: 'x', step: 'composed', started_at: daysAgo(0) }];
      f.worktrees.accept_running = true;
    },
    'pass',
  ],
  // standards
  [
    'standards.configured',
    'no standards',
    (f) => {
      delete f.config.standards;
    },
    'fail',
  ],
  [
    'standards.measured',
    'one of two unmeasured',
    (f) => {
      f.config.standards = { ...f.config.standards, size: { direction: 'down', limit: 100, margin: 1, run: 'du' } };
    },
    'partial',
  ],
  [
    'standards.measured',
    'never measured',
    (f) => {
      f.standards.values = {};
    },
    'fail',
  ],
  [
    'standards.holding',
    'below its floor',
    (f) => {
      f.standards.values = { coverage: { value: 70, measured_at: daysAgo(1), source: 'x' } };
    },
    'fail',
  ],
  [
    'standards.margins',
    'one of two without a margin',
    (f) => {
      f.config.standards = { ...f.config.standards, size: { direction: 'down', limit: 100, run: 'du' } };
      f.standards.values = { ...f.standards.values, size: { value: 50, measured_at: daysAgo(1), source: 'x' } };
    },
    'partial',
  ],
  [
    'standards.margins',
    'no margin',
    (f) => {
      f.config.standards = { coverage: { direction: 'up', limit: 80, run: 'node cov.js' } };
    },
    'fail',
  ],
  [
    'standards.fresh',
    'an on-demand standard never measured',
    (f) => {
      f.config.standards = {
        ...f.config.standards,
        bench: { direction: 'down', limit: 5, margin: 1, run: 'bench', measure: 'on-demand' },
      };
    },
    'partial',
  ],
  [
    'standards.fresh',
    'measured two months ago',
    (f) => {
      f.standards.values = { coverage: { value: 84, measured_at: daysAgo(60), source: 'x' } };
    },
    'fail',
  ],
  // checkpoints
  [
    'checkpoints.configured',
    'no checkpoints',
    (f) => {
      f.checkpoints.list = [];
    },
    'fail',
  ],
  [
    'checkpoints.risky-paths',
    'dependencies ungoverned',
    (f) => {
      f.checkpoints.list = f.checkpoints.list.filter((c) => c.id !== 'dependencies');
    },
    'partial',
  ],
  [
    'checkpoints.risky-paths',
    'nothing risky governed',
    (f) => {
      f.checkpoints.list = [{ id: 'docs', mode: 'advise', paths: ['docs/**'], exclude_paths: [], question: 'q' }];
    },
    'fail',
  ],
  [
    'checkpoints.risky-paths',
    'excluded paths are not governed',
    (f) => {
      f.checkpoints.list = f.checkpoints.list.map((c) => ({ ...c, exclude_paths: ['**'] }));
    },
    'fail',
  ],
  [
    'checkpoints.risky-paths',
    'nothing risky tracked',
    (f) => {
      f.tracked = ['README.md', 'src/app.ts'];
    },
    'pass',
  ],
  [
    'checkpoints.questions',
    'one checkpoint asks nothing',
    (f) => {
      delete f.checkpoints.list[1]?.question;
    },
    'partial',
  ],
  [
    'checkpoints.questions',
    'a question_file that is missing',
    (f) => {
      for (const c of f.checkpoints.list) {
        delete c.question;
        c.question_file = 'q.md';
        c.question_file_ok = false;
      }
    },
    'fail',
  ],
  [
    'checkpoints.stop-irreversible',
    'migrations only advised',
    (f) => {
      const m = f.checkpoints.list[0];
      if (m) m.mode = 'advise';
    },
    'fail',
  ],
  [
    'checkpoints.stop-irreversible',
    'CI stopped, migrations advised',
    (f) => {
      f.tracked = [...f.tracked, '.github/workflows/ci.yml'];
      f.checkpoints.list.push({ id: 'ci', mode: 'stop', paths: ['.github/**'], exclude_paths: [], question: 'q' });
      const m = f.checkpoints.list[0];
      if (m) m.mode = 'advise';
    },
    'partial',
  ],
  // skills
  [
    'skills.authored',
    'an empty skills folder',
    (f) => {
      f.refresh.skills = f.refresh.skills.filter((s) => s.source === 'builtin');
    },
    'partial',
  ],
  [
    'skills.authored',
    'no skills folder',
    (f) => {
      f.refresh.skills = f.refresh.skills.filter((s) => s.source === 'builtin');
      f.refresh.skillsDirExists = false;
    },
    'fail',
  ],
  [
    'skills.front-matter',
    'a folder without SKILL.md',
    (f) => {
      f.refresh.ignoredSkillFolders = ['discern/skills/notes'];
    },
    'partial',
  ],
  [
    'skills.front-matter',
    'a SKILL.md without a description',
    (f) => {
      f.refresh.skillProblems = [{ path: 'discern/skills/x/SKILL.md', message: 'the front matter has no description' }];
    },
    'fail',
  ],
  [
    'skills.materialised',
    'a copy out of date',
    (f) => {
      const c = f.refresh.skills[0]?.copies[0];
      if (c) c.state = 'stale';
    },
    'partial',
  ],
  [
    'skills.materialised',
    "someone else's file in the way",
    (f) => {
      const c = f.refresh.skills[0]?.copies[0];
      if (c) c.state = 'blocked';
    },
    'partial',
  ],
  [
    'skills.materialised',
    'nothing materialised',
    (f) => {
      for (const s of f.refresh.skills) for (const c of s.copies) c.state = 'missing';
    },
    'fail',
  ],
  [
    'skills.exclusions',
    'an exclusion naming no skill',
    (f) => {
      f.config.skills = { exclude: ['relase'] };
    },
    'partial',
  ],
  [
    'skills.exclusions',
    'an excluded skill left behind',
    (f) => {
      f.refresh.targets = [{ path: '.claude/skills/old/SKILL.md', kind: 'skill', action: 'delete', removes: true }];
    },
    'fail',
  ],
];

describe('each rule on a project with one thing broken', () => {
  for (const [id, what, mutate, expected] of CASES) {
    it(`${id}: ${what} → ${expected}`, () => {
      const facts = broken(mutate);
      assert.equal(statusOf(facts, id), expected);
      // Nothing else in the category moved, unless the break is shared by design.
      const rule = CATEGORIES.flatMap((c) => c.rules).find((r) => r.id === id);
      const v = rule?.evaluate(facts);
      if (v && v.status !== 'pass') {
        assert.ok(v.fix && v.fix.length > 0, 'a rule that does not pass says how to fix it');
        assert.ok(v.read.length > 0, 'and what it read');
      }
    });
  }
  it('every rule is driven to a non-pass status by some case, and each category to partial and fail', () => {
    const reached = new Map<string, Set<RuleStatus>>();
    for (const [id, , mutate, expected] of CASES) {
      if (statusOf(broken(mutate), id) !== expected) continue;
      reached.set(id, (reached.get(id) ?? new Set()).add(expected));
    }
    for (const c of CATEGORIES) {
      for (const r of c.rules)
        assert.ok(
          [...(reached.get(r.id) ?? [])].some((s) => s !== 'pass'),
          `${r.id} never fails or partly passes`,
        );
      const statuses = new Set(c.rules.flatMap((r) => [...(reached.get(r.id) ?? [])]));
      assert.ok(statuses.has('partial') && statuses.has('fail'), `${c.name}: ${[...statuses].join(', ')}`);
    }
  });
});

describe('scoring', () => {
  it('weighs rules by severity inside a category: pass 1, partial 1/2, fail 0', () => {
    const facts = broken((f) => {
      delete f.config.scopes;
    }); // gate.scopes (severity 1) fails; the other four pass
    const gate = evaluateCategory(CATEGORIES[0]!, 0, facts);
    assert.equal(gate.category.name, 'gate');
    const total = CATEGORIES[0]!.rules.reduce((s, r) => s + r.severity, 0);
    assert.equal(gate.score, Math.round((100 * (total - 1)) / total));
  });
  it('weighs categories by weight overall and marks those under 60 weak', () => {
    const facts = broken((f) => {
      f.checkpoints.list = [];
    });
    const result = audit(CATEGORIES, facts);
    const checkpoints = result.categories.find((c) => c.category.name === 'checkpoints');
    assert.ok(checkpoints && checkpoints.weak && checkpoints.score < 60);
    assert.deepEqual(result.weak, ['checkpoints']);
    const weights = result.categories.reduce((s, c) => s + c.category.weight, 0);
    assert.equal(
      result.score,
      Math.round(result.categories.reduce((s, c) => s + c.category.weight * c.raw, 0) / weights),
    );
  });
});

describe('ranking', () => {
  it('picks the most severe shortfall in the weakest category, and leaves blocked rules to their blocker', () => {
    const facts = broken((f) => {
      f.checkpoints.list = []; // checkpoints: configured fails; questions and stop are blocked by it
      f.instructions = {}; // instructions.gotchas fails (severity 1) in a category that stays stronger
    });
    const result = audit(CATEGORIES, facts);
    assert.equal(result.next?.outcome.rule.id, 'checkpoints.configured');
    const ranked = [result.next, ...result.recommendations].map((r) => r?.outcome.rule.id);
    assert.ok(!ranked.includes('checkpoints.questions'), 'a blocked rule is not ranked on its own');
    assert.ok(!ranked.includes('checkpoints.stop-irreversible'));
    assert.ok(ranked.includes('instructions.gotchas'));
  });
  it('is deterministic: the same facts rank the same way, whatever the evaluation order', () => {
    const facts = broken((f) => {
      delete f.config.scopes;
      f.map.pages = f.map.pages.slice(0, 1);
      f.refresh.sourceChars = 10;
      f.worktrees.submissions = [{ effort: 'x', branch: 'agent/x', submitted_at: daysAgo(9) }];
    });
    const first = audit(CATEGORIES, facts);
    const again = audit(CATEGORIES, structuredClone(facts));
    const ids = (a: typeof first): string[] => [a.next, ...a.recommendations].map((r) => r?.outcome.rule.id ?? '');
    assert.deepEqual(ids(again), ids(first));
    const reversed = rank([...first.categories].reverse());
    assert.deepEqual(
      [reversed.next, ...reversed.recommendations].map((r) => r?.outcome.rule.id),
      ids(first),
    );
  });
  it('breaks a tie between equally weak categories by weight, then by the fixed order', () => {
    const facts = healthyFacts();
    const outcomes = audit(CATEGORIES, facts).categories.map((c) => ({ ...c }));
    const map = outcomes.find((c) => c.category.name === 'map');
    const skills = outcomes.find((c) => c.category.name === 'skills');
    assert.ok(map && skills);
    for (const o of [map, skills]) {
      o.raw = 40;
      o.rules = o.rules.map((r, i) => (i === 0 ? { ...r, verdict: { ...r.verdict, status: 'fail', fix: 'x' } } : r));
    }
    assert.equal(rank(outcomes).next?.category.category.name, 'map', 'same weight: map comes before skills');
  });
});

describe('checkpoints read loosely from a parsed configuration', () => {
  it('takes scope, paths, exclusions, mode (stop by default) and questions; reports tables that are not checkpoints', async () => {
    const config = {
      checkpoints: {
        migrations: { scope: 'db', question: 'Reversible?' },
        deps: { paths: 'package.json', mode: 'advise', exclude_paths: ['vendor/**'] },
        odd: 'not a table',
      },
    };
    const read = await checkpointFacts({ root: '/nonexistent', config: config as never });
    assert.deepEqual(read.list, [
      { id: 'migrations', mode: 'stop', scope: 'db', paths: [], exclude_paths: [], question: 'Reversible?' },
      { id: 'deps', mode: 'advise', paths: ['package.json'], exclude_paths: ['vendor/**'] },
    ]);
    assert.deepEqual(read.unreadable, ['odd is not a table']);
  });
  it('tolerates a configuration without the section', async () => {
    assert.deepEqual(await checkpointFacts({ root: '/nonexistent', config: {} }), { list: [], unreadable: [] });
  });
});

describe('map lag from one git log', () => {
  it('parses records, shas and NUL-separated paths', () => {
    const out = '\x1eaaa\0\nsrc/a.ts\0docs/x.md\0\x1ebbb\0\nsrc/b.ts\0';
    assert.deepEqual(parseCommits(out), [
      { sha: 'aaa', paths: ['src/a.ts', 'docs/x.md'] },
      { sha: 'bbb', paths: ['src/b.ts'] },
    ]);
  });
  it("counts commits to cited code newer than the region's last page change, and marks a lower bound", () => {
    const tracked = new Set(['src/a.ts', 'src/b.ts', 'map/area/page.md']);
    const regions = [
      {
        name: 'area',
        dir: 'map/area',
        pages: [{ path: 'map/area/page.md', content: 'See `src/a.ts` and [b](../../src/b.ts).' }],
      },
    ];
    const history = [
      { sha: '1', paths: ['src/a.ts'] },
      { sha: '2', paths: ['src/b.ts', 'README.md'] },
      { sha: '3', paths: ['map/area/page.md'] },
      { sha: '4', paths: ['src/a.ts'] },
    ];
    assert.deepEqual(regionLag(regions, 'map', tracked, history, false).get('area'), {
      cited_files: 2,
      code_changes_since: 2,
    });
    assert.deepEqual(regionLag(regions, 'map', tracked, history.slice(0, 2), true).get('area'), {
      cited_files: 2,
      code_changes_since: 2,
      lower_bound: true,
    });
    assert.deepEqual(
      regionLag(
        [{ ...regions[0]!, pages: [{ path: 'map/area/page.md', content: 'nothing cited' }] }],
        'map',
        tracked,
        history,
        false,
      ).get('area'),
      { cited_files: 0 },
    );
  });
});
