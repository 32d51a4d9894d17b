// The standards category: the project holds itself to at least one measured number, each standard has been
// measured recently and holds its limit, pins leave headroom, and no on-demand standard goes unmeasured.
import { configuredStandards, type StandardDefinition } from '../../config/standards.js';
import type { Category, Facts, Rule } from '../types.js';
import { blocked, count, daysBetween, listed, verdict } from '../verdict.js';

/** A measurement older than this describes a project that has moved on. */
export const MEASUREMENT_MAX_DAYS = 30;

function definitions(facts: Facts): StandardDefinition[] {
  return configuredStandards(facts.config);
}

const READ = ['standard-measurements.json and Proof markers of every checkout'];

const configured: Rule = {
  id: 'standards.configured',
  title: 'The project holds itself to at least one measured standard',
  severity: 3,
  kind: 'decide',
  evaluate(facts) {
    const defs = definitions(facts);
    const read = [`${facts.configFile} [standards]`];
    if (defs.length === 0) {
      return verdict(
        'fail',
        'No [standards]: nothing stops coverage, size or warnings from sliding a little with every change.',
        {
          read,
          counts: { standards: 0 },
          fix: 'Choose one number to hold (test coverage, lint warnings, bundle size) and add it: `discern config set-standard <name> --direction up|down --limit <n> --run "<command printing DISCERN_METRIC <name> <n>>"`.',
          against: facts.configFile,
        },
      );
    }
    return verdict(
      'pass',
      `${count(defs.length, 'standard')}: ${listed(
        defs.map((d) => `${d.name} (${d.direction === 'up' ? '≥' : '≤'} ${d.limit})`),
        4,
      )}.`,
      { read, counts: { standards: defs.length } },
    );
  },
};

const measured: Rule = {
  id: 'standards.measured',
  title: 'Each gate standard has a recorded measurement',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const defs = definitions(facts).filter((d) => d.measure === 'gate');
    if (definitions(facts).length === 0)
      return blocked('standards.configured', 'There are no standards to measure.', READ);
    const unmeasured = defs.filter((d) => facts.standards.values[d.name] === undefined);
    const counts = { gate_standards: defs.length, unmeasured: unmeasured.length };
    if (unmeasured.length === 0)
      return verdict('pass', `Every gate standard (${defs.length}) has a recorded value.`, { read: READ, counts });
    return verdict(
      unmeasured.length === defs.length ? 'fail' : 'partial',
      `No green run has recorded ${listed(unmeasured.map((d) => d.name))}.`,
      {
        read: READ,
        counts,
        fix: 'Run `discern standards` on a clean tree (MCP: discern_standards): a green measurement records each value, as a green `discern done` does.',
        against: unmeasured[0]?.name ?? '',
      },
    );
  },
};

const holding: Rule = {
  id: 'standards.holding',
  title: 'Every measured standard holds its limit',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const defs = definitions(facts);
    if (defs.length === 0) return blocked('standards.configured', 'There are no standards to hold.', READ);
    const measuredDefs = defs.filter((d) => facts.standards.values[d.name] !== undefined);
    const regressed = measuredDefs.filter((d) => {
      const value = facts.standards.values[d.name]?.value ?? 0;
      return d.direction === 'up' ? value < d.limit : value > d.limit;
    });
    const counts = { measured: measuredDefs.length, regressed: regressed.length };
    if (measuredDefs.length === 0)
      return blocked('standards.measured', 'No standard has a recorded value to compare with its limit.', READ);
    if (regressed.length === 0)
      return verdict(
        'pass',
        `${count(measuredDefs.length, 'measured standard')} within ${measuredDefs.length === 1 ? 'its limit' : 'their limits'}.`,
        { read: READ, counts },
      );
    const first = regressed[0];
    const describe = (d: StandardDefinition): string =>
      `${d.name} ${facts.standards.values[d.name]?.value ?? '?'} (limit ${d.direction === 'up' ? '≥' : '≤'} ${d.limit})`;
    return verdict('fail', `Past the limit at the last measurement: ${listed(regressed.map(describe))}.`, {
      read: READ,
      counts,
      fix: `Bring ${first?.name ?? ''} back within its limit and check it with \`discern standards ${first?.name ?? ''}\`; loosening a limit is the owner's call (\`discern_standards\` with action "propose").`,
      against: first?.name ?? '',
    });
  },
};

const margins: Rule = {
  id: 'standards.margins',
  title: 'Each standard has a margin, so pinning leaves headroom',
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const defs = definitions(facts);
    const read = [`${facts.configFile} [standards] margin`];
    if (defs.length === 0) return blocked('standards.configured', 'There are no standards to give a margin.', read);
    const without = defs.filter((d) => d.margin <= 0);
    const counts = { standards: defs.length, without_margin: without.length };
    if (without.length === 0) return verdict('pass', `Every standard (${defs.length}) has a margin.`, { read, counts });
    const first = without[0]?.name ?? '';
    return verdict(
      without.length === defs.length ? 'fail' : 'partial',
      `No margin on ${listed(without.map((d) => d.name))}: a pin tightens to the last value exactly, and noise then fails the gate.`,
      {
        read,
        counts,
        fix: `Run \`discern config set standards.${first}.margin <headroom>\` (e.g. the run-to-run noise of the metric).`,
        against: facts.configFile,
      },
    );
  },
};

const fresh: Rule = {
  id: 'standards.fresh',
  title: `Every standard, on-demand ones included, was measured in the last ${MEASUREMENT_MAX_DAYS} days`,
  severity: 1,
  kind: 'review',
  evaluate(facts) {
    const defs = definitions(facts);
    if (defs.length === 0) return blocked('standards.configured', 'There are no standards to measure.', READ);
    // A gate standard never measured is standards.measured's finding; this rule looks at the rest.
    const subjects = defs.filter((d) => d.measure === 'on-demand' || facts.standards.values[d.name] !== undefined);
    if (subjects.length === 0)
      return blocked('standards.measured', 'No standard has a measurement whose age could be judged.', READ);
    const old = subjects
      .map((d) => ({ d, at: facts.standards.values[d.name]?.measured_at }))
      .map(({ d, at }) => ({ d, days: at === undefined ? undefined : daysBetween(Date.parse(at), facts.now) }))
      .filter(({ days }) => days === undefined || days > MEASUREMENT_MAX_DAYS);
    const counts = {
      standards: subjects.length,
      stale: old.length,
      on_demand: defs.filter((d) => d.measure === 'on-demand').length,
    };
    if (old.length === 0)
      return verdict(
        'pass',
        `Every measured standard (${subjects.length}) was measured in the last ${MEASUREMENT_MAX_DAYS} days.`,
        { read: READ, counts },
      );
    const describe = ({ d, days }: { d: StandardDefinition; days: number | undefined }): string =>
      `${d.name}${d.measure === 'on-demand' ? ' (on-demand)' : ''}: ${days === undefined ? 'never' : `${days} days ago`}`;
    const onDemand = old.find(({ d }) => d.measure === 'on-demand')?.d;
    return verdict(
      old.length === subjects.length ? 'fail' : 'partial',
      `Not measured recently: ${listed(old.map(describe))}.`,
      {
        read: READ,
        counts,
        reviews: old.map(({ d, days }) => ({
          subject: `standard ${d.name}`,
          reason: days === undefined ? 'never measured' : `last measured ${days} days ago`,
        })),
        fix:
          onDemand !== undefined
            ? `Run \`discern standards ${onDemand.name}\` (a green \`discern done\` does not measure on-demand standards), or make it a gate standard: \`discern config set standards.${onDemand.name}.measure gate\`.`
            : `Run \`discern standards\` on a clean tree to measure ${old.length === 1 ? 'it' : 'them'} again.`,
        against: (onDemand ?? old[0]?.d)?.name ?? '',
      },
    );
  },
};

export const STANDARDS: Category = {
  name: 'standards',
  title: 'Standards',
  weight: 2,
  rules: [configured, measured, holding, margins, fresh],
};
