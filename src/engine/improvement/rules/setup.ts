// The setup category: setup is finished, discern.toml passes every check (not only the schema), it names its
// format version and the project, and the configured agents are wired to discern.
import type { Category, Rule } from '../types.js';
import { count, listed, verdict } from '../verdict.js';

const finished: Rule = {
  id: 'setup.finished',
  title: 'Setup is finished',
  severity: 3,
  kind: 'fix',
  evaluate(facts) {
    const read = ['<git-common-dir>/discern/setup.json'];
    const u = facts.setup.unfinished;
    if (u)
      return verdict(
        'fail',
        `A setup was begun on ${u.branch} and is ${u.phase}, not accepted: the work loop refuses until it lands.`,
        { read, fix: `Run \`${u.next}\`.`, against: u.branch },
      );
    if (facts.setup.stateUnreadable !== undefined)
      return verdict('partial', `The setup state cannot be read: ${facts.setup.stateUnreadable}.`, {
        read,
        fix: 'Run `discern setup verify` to see where setup stands.',
        against: read[0] ?? '',
      });
    return verdict('pass', 'No setup is in progress; discern.toml is committed.', { read });
  },
};

const configChecks: Rule = {
  id: 'setup.config-check',
  title: 'discern.toml passes the checks beyond its schema: globs, pre_authorized scopes and job commands',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const { configErrors: errors, configWarnings: warnings } = facts.setup;
    const read = [facts.configFile];
    const counts = { errors: errors.length, warnings: warnings.length };
    const fix = 'Run `discern validate-config` and fix each problem it names (its key, line and column).';
    if (errors.length > 0)
      return verdict(
        'fail',
        `${count(errors.length, 'error')}: ${listed(
          errors.map((e) => `${e.path} ${e.message}`),
          2,
        )}.`,
        { read, counts, fix, against: facts.configFile },
      );
    if (warnings.length > 0)
      return verdict(
        'partial',
        `${count(warnings.length, 'warning')}: ${listed(
          warnings.map((w) => `${w.path} ${w.message}`),
          2,
        )}.`,
        { read, counts, fix, against: facts.configFile },
      );
    return verdict('pass', 'The schema, every glob, every pre_authorized scope and every job command check out.', {
      read,
      counts,
    });
  },
};

const schemaVersion: Rule = {
  id: 'setup.schema-version',
  title: 'discern.toml declares the current [meta] schema_version',
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const { schemaVersion: declared, currentSchemaVersion: current } = facts.setup;
    const read = [`${facts.configFile} [meta] schema_version`];
    if (declared === current) return verdict('pass', `schema_version is ${current}, the current format.`, { read });
    if (declared === undefined) {
      return verdict(
        'partial',
        `No [meta] schema_version: the file is read as format ${current}, and a future migration cannot tell which format it was written in.`,
        {
          read,
          fix: `Run \`discern config set meta.schema_version ${current}\`.`,
          against: facts.configFile,
        },
      );
    }
    return verdict('fail', `schema_version is ${declared}; this discern writes format ${current}.`, {
      read,
      fix: 'Run `discern upgrade` to migrate discern.toml in place.',
      against: facts.configFile,
    });
  },
};

const identity: Rule = {
  id: 'setup.identity',
  title: 'The project has a name and a slug',
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const project = facts.config.project ?? {};
    const missing = [
      project.name === undefined ? 'name' : undefined,
      project.slug === undefined ? 'slug' : undefined,
    ].filter((k): k is string => k !== undefined);
    const read = [`${facts.configFile} [project]`];
    if (missing.length === 0)
      return verdict('pass', `name "${project.name ?? ''}", slug "${project.slug ?? ''}".`, { read });
    return verdict(
      missing.length === 2 ? 'fail' : 'partial',
      `[project] has no ${missing.join(' and no ')}: worktree, branch and port names fall back to the folder's name.`,
      {
        read,
        fix: `Run \`discern config set project.${missing[0] ?? 'slug'} <value>\` (a slug is lowercase letters, digits and -).`,
        against: facts.configFile,
      },
    );
  },
};

const agentsWired: Rule = {
  id: 'setup.agents-wired',
  title: 'Every configured agent is wired to discern (MCP server and hooks)',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const r = facts.refresh;
    const read = ['refresh plan (MCP and hook files of each agent)'];
    if (r.failed !== undefined)
      return verdict('fail', `Refresh cannot plan the agents' files: ${r.failed}.`, {
        read,
        fix: 'Run `discern refresh --dry-run` and fix the file it names.',
      });
    const wiring = r.targets.filter((t) => t.kind === 'mcp' || t.kind === 'hooks');
    const errors = r.errors.filter((e) => e.area === 'wiring');
    const counts = { agents: r.agents.length, pending: wiring.length, errors: errors.length };
    const fix = 'Run `discern refresh` and commit what it writes.';
    if (errors.length > 0)
      return verdict(
        'fail',
        `${count(errors.length, 'agent file')} cannot be planned: ${listed(
          errors.map((e) => e.message),
          2,
        )}`,
        {
          read,
          counts,
          fix: `Fix ${errors[0]?.path ?? 'the file'} as the message says, then run \`discern refresh\`.`,
          against: errors[0]?.path ?? '',
        },
      );
    if (wiring.length === 0)
      return verdict(
        'pass',
        `${r.agents.join(', ')} ${r.agents.length === 1 ? 'is' : 'are'} wired; refresh would change no MCP or hook file.`,
        { read, counts },
      );
    const missing = wiring.filter((t) => t.action === 'create').length;
    return verdict(
      missing === wiring.length && !wiring.some((t) => t.removes) ? 'fail' : 'partial',
      `Refresh would ${listed(
        wiring.map((t) => `${t.action} ${t.path}`),
        4,
      )}.`,
      { read, counts, fix, against: wiring[0]?.path ?? '' },
    );
  },
};

export const SETUP: Category = {
  name: 'setup',
  title: 'Setup',
  weight: 2,
  rules: [finished, configChecks, schemaVersion, identity, agentsWired],
};
