// A crafted, healthy set of audit facts: every rule passes on it. Tests copy it and break one thing at a time.
import type { DiscernConfig } from '../../../generated/types.js';
import type { Facts } from '../../../src/engine/improvement/types.js';

export const NOW = Date.parse('2026-03-01T12:00:00Z');
const HEAD = 'a'.repeat(40);
const day = (n: number): string => new Date(NOW - n * 86_400_000).toISOString();

export function healthyFacts(): Facts {
  const config: DiscernConfig = {
    meta: { schema_version: 1 },
    project: { name: 'Acme', slug: 'acme' },
    repository: { trunk: 'main' },
    jobs: {
      format: 'prettier --write .',
      lint: 'eslint .',
      typecheck: 'tsc --noEmit',
      test: { run: 'vitest run', timeout: 900 },
    },
    scopes: {
      docs: { paths: ['docs/**', '*.md'], neutral: true },
      src: { paths: ['src/**'] },
      db: { paths: ['db/**'] },
    },
    standards: { coverage: { direction: 'up', limit: 80, margin: 0.5, run: 'node cov.js' } },
  };
  (config as Record<string, unknown>)['checkpoints'] = {
    migrations: { scope: 'db', question: 'Is the migration reversible?' },
    dependencies: { paths: ['package.json'], mode: 'advise', question: 'Is the new dependency maintained?' },
  };
  return {
    now: NOW,
    config,
    configFile: 'discern.toml',
    trunk: 'main',
    head: { commit: HEAD, clean: true },
    tracked: ['README.md', 'package.json', 'src/app.ts', 'db/migrations/001_init.sql', 'discern/map/gotchas.md'],
    gate: {
      proof: {
        state: 'present',
        commit: HEAD,
        recorded_at: day(0),
        current_config: true,
        producers: [{ label: 'test', outcome: 'ok', duration_ms: 60_000 }],
      },
      lastRun: { commit: HEAD, verdict: 'green', failed_stage: null, at: day(0) },
      operations: [
        { handle: 'R1-AAAA-AAAA-AA', verb: 'done', started_at: day(2), outcome: 'completed', abandoned: false },
        { handle: 'R1-BBBB-BBBB-BB', verb: 'done', started_at: day(1), outcome: 'failed', abandoned: false },
        { handle: 'R1-CCCC-CCCC-CC', verb: 'done', started_at: day(0), outcome: 'completed', abandoned: false },
        { handle: 'R1-DDDD-DDDD-DD', verb: 'test', started_at: day(0), outcome: 'completed', abandoned: false },
      ],
      read: ['<git-dir>/discern/gate-proof'],
    },
    setup: { configErrors: [], configWarnings: [], schemaVersion: 1, currentSchemaVersion: 1 },
    refresh: {
      agents: ['claude_code'],
      targets: [],
      errors: [],
      skipped: [],
      sources: ['discern/instructions.md'],
      sourceChars: 900,
      skillsDir: 'discern/skills',
      skillsDirExists: true,
      skills: [
        {
          name: 'release',
          source: 'authored',
          excluded: false,
          copies: [{ path: '.claude/skills/release/SKILL.md', state: 'current' }],
        },
        {
          name: 'discern-land-change',
          source: 'builtin',
          excluded: false,
          copies: [{ path: '.claude/skills/discern-land-change/SKILL.md', state: 'current' }],
        },
      ],
      skillProblems: [],
      ignoredSkillFolders: [],
    },
    instructions: { gotchas: { path: 'discern/map/gotchas.md', configured: false, bytes: 400 } },
    map: {
      dir: 'discern/map',
      exists: true,
      pages: ['a', 'b', 'c', 'd'].map((n) => ({
        path: `discern/map/10-area/${n}.md`,
        has_front_matter: true,
        title: n,
        description: `About ${n}.`,
      })),
      brokenLinks: [],
      regions: [{ name: 'area', page_count: 4, code_changes_since: 1 }],
      decisionsDir: 'discern/map/decisions',
      decisions: [
        { number: '0001', file: '0001-first.md' },
        { number: '0002', file: '0002-second.md' },
      ],
    },
    worktrees: {
      linked: [],
      unlanded: [{ branch: 'agent/fresh', committed_at: Math.floor((NOW - 86_400_000) / 1000) }],
      submissions: [],
      transactions: [],
      accept_running: false,
    },
    standards: { values: { coverage: { value: 84, measured_at: day(1), source: 'standard-measurements.json' } } },
    checkpoints: {
      list: [
        {
          id: 'migrations',
          mode: 'stop',
          scope: 'db',
          paths: [],
          exclude_paths: [],
          question: 'Is the migration reversible?',
        },
        {
          id: 'dependencies',
          mode: 'advise',
          paths: ['package.json'],
          exclude_paths: [],
          question: 'Is the new dependency maintained?',
        },
      ],
      unreadable: [],
    },
  };
}

export function daysAgo(n: number): string {
  return day(n);
}
