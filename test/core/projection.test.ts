// The projection is one generic function over the rules generated from the data schema. A synthetic maximal
// status (every collection over its cap, nested ones too) shows what is capped and that omitted counts are
// exact, under dotted paths with zero-based indexes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernStatusData } from '../../generated/types.js';
import { fullCollections, projectCollections } from '../../src/core/projection.js';
import { resultValidator } from '../helpers/published-schema.js';

const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

function maximalStatus(): Omit<DiscernStatusData, 'projection'> {
  return {
    location: 'main',
    root: '/r',
    project: { name: 'p', config: '/r/discern.toml' },
    worktree: null,
    git: {
      branch: 'main',
      head: 'a'.repeat(40),
      detached: false,
      unborn: false,
      shallow: false,
      trunk: 'main',
      trunk_exists: true,
      clean: true,
      changed_files: 0,
      untracked_files: 0,
      ahead_trunk: 0,
      behind_trunk: 0,
    },
    gate: {
      jobs: many(9, (i) => ({ name: `job${i}`, stage: 'check' as const, commands: many(i, (k) => `cmd ${k}`) })),
      scope_gates: many(7, (i) => ({ scope: `s${i}`, commands: many(8, (k) => `gate ${k}`) })),
    },
    scopes: many(10, (i) => ({ name: `scope${i}`, paths: many(12, (k) => `p${k}/**`), neutral: i % 2 === 0 })),
    standards: many(6, (i) => `standard${i}`),
    gate_proof: { status: 'missing' },
    fleet: many(11, (i) => ({ path: `/wt/${i}`, is_main: i === 0, is_current: i === 0, branch: `agent/${i}` })),
    fleet_total: 11,
  };
}

describe('projectCollections on a maximal status', () => {
  const projected = projectCollections(maximalStatus(), VERBS.status.projection);

  it('caps every collection at six, the fleet at the main row plus six', () => {
    assert.equal(projected.gate.jobs.length, 6);
    assert.equal(projected.gate.scope_gates.length, 6);
    assert.equal(projected.scopes.length, 6);
    assert.equal(projected.standards.length, 6);
    assert.equal(projected.fleet?.length, 7);
    assert.ok(projected.fleet?.[0]?.is_main, 'the main row stays first');
    for (const s of projected.scopes) assert.ok(s.paths.length <= 6);
  });
  it('counts exactly what was left out, outer collections before inner ones', () => {
    assert.deepEqual(projected.projection, {
      mode: 'orientation',
      omitted: {
        fleet: 4,
        'gate.jobs': 3,
        'gate.scope_gates': 1,
        'gate.scope_gates.0.commands': 2,
        'gate.scope_gates.1.commands': 2,
        'gate.scope_gates.2.commands': 2,
        'gate.scope_gates.3.commands': 2,
        'gate.scope_gates.4.commands': 2,
        'gate.scope_gates.5.commands': 2,
        scopes: 4,
        'scopes.0.paths': 6,
        'scopes.1.paths': 6,
        'scopes.2.paths': 6,
        'scopes.3.paths': 6,
        'scopes.4.paths': 6,
        'scopes.5.paths': 6,
      },
    });
    // jobs 0–5 have at most 5 commands; job 6+ (7, 8 commands) were cut by the outer cap, so no inner count.
    assert.ok(!Object.keys(projected.projection.omitted ?? {}).some((k) => k.startsWith('gate.jobs.')));
  });
  it('leaves the input untouched and keeps fleet_total true', () => {
    const input = maximalStatus();
    projectCollections(input, VERBS.status.projection);
    assert.equal(input.fleet?.length, 11);
    assert.equal(projected.fleet_total, 11);
  });
  it('has no omitted map when nothing was cut, and full mode keeps everything', () => {
    const small = { ...maximalStatus(), gate: { jobs: [], scope_gates: [] }, scopes: [], fleet: [] };
    assert.deepEqual(projectCollections(small, VERBS.status.projection).projection, { mode: 'orientation' });
    const full = fullCollections(maximalStatus());
    assert.equal(full.scopes[0]?.paths.length, 12);
    assert.deepEqual(full.projection, { mode: 'full' });
  });
  it('produces data the published status schema accepts', () => {
    const validate = resultValidator('DiscernStatusResult');
    assert.ok(validate({ ok: true, verb: 'status', data: projected }), JSON.stringify(validate.errors));
  });
  it('covers every array of the status data schema', () => {
    const paths = VERBS.status.projection.map((r) => r.path.join('.'));
    assert.deepEqual(paths.sort(), [
      'emergency_pending',
      'fleet',
      'fleet.*.gate_proof.proof.checkpoints.declared_met',
      'fleet.*.gate_proof.proof.checkpoints.declared_unmet',
      'fleet.*.gate_proof.proof.checkpoints.drops',
      'fleet.*.gate_proof.proof.gate_skipped.scopes',
      'fleet.*.gate_proof.proof.jobs',
      'fleet.*.gate_proof.proof.standard_proposals',
      'fleet.*.landing_authority.scopes',
      'fleet.*.landing_authority.standing_scopes',
      'fleet.*.landing_authority.uncovered',
      'fleet.*.landing_authority.warnings',
      'fleet_collisions',
      'fleet_collisions.*.efforts',
      'fleet_collisions.*.paths',
      'gate.jobs',
      'gate.jobs.*.commands',
      'gate.jobs.*.provides',
      'gate.scope_gates',
      'gate.scope_gates.*.commands',
      'gate_proof.proof.checkpoints.declared_met',
      'gate_proof.proof.checkpoints.declared_unmet',
      'gate_proof.proof.checkpoints.drops',
      'gate_proof.proof.gate_skipped.scopes',
      'gate_proof.proof.jobs',
      'gate_proof.proof.standard_proposals',
      'landing_authority.scopes',
      'landing_authority.standing_scopes',
      'landing_authority.uncovered',
      'landing_authority.warnings',
      'queue',
      'queue.*.failures',
      'queue.*.unhonoured',
      'scopes',
      'scopes.*.paths',
      'setup_unfinished.assurance.not_applicable',
      'setup_unfinished.known_jobs',
      'standards',
      'unhonoured_records',
      'unlanded_branches',
      'worktree.resources',
    ]);
  });
});

describe('how status words its caps', () => {
  // The hint and the tool description are what an agent reads about the caps: they must name the fleet's.
  const fleet = VERBS.status.projection.find((rule) => rule.path.join('.') === 'fleet');
  const words: Record<number, string> = { 6: 'six', 7: 'seven' };
  it('the verbose route names the fleet cap, not only the common one', () => {
    assert.ok(fleet);
    assert.match(VERBS.status.hints.verbose_route, new RegExp(`fleet at ${words[fleet.cap] ?? String(fleet.cap)}`));
  });
  it("so does discern_status's description", () => {
    assert.ok(fleet);
    assert.match(
      MCP_TOOLS.find((t) => t.name === 'discern_status')?.description ?? '',
      new RegExp(`fleet at ${words[fleet.cap] ?? String(fleet.cap)}`),
    );
  });
});
