// doctor's view of the git filter drivers: each configured driver, each of its commands trusted or not and why,
// and for an untrusted one the line that trusts it in the trunk's discern.toml (the policy done reads).
import type { DiscernDoctorFilter } from '../../generated/types.js';
import { judgeDrivers, readFilterConfig, trustLine, trustedFiltersFrom } from '../engine/gate/filter-trust.js';
import { trunkConfigRead } from '../engine/gate/trunk-limits.js';

export async function doctorFilters(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  trunk: string | undefined,
): Promise<DiscernDoctorFilter[] | undefined> {
  // git that cannot be started is the git check's failure; this list is then simply absent.
  const [read, shown] = await Promise.all([
    readFilterConfig({ cwd: root, env }).catch(() => ({ ok: false as const, reason: 'git could not be started' })),
    trunk !== undefined
      ? trunkConfigRead({ root, env, base: trunk, baseRef: `refs/heads/${trunk}` }).catch(() => undefined)
      : undefined,
  ]);
  if (!read.ok) return undefined;
  const trusted = trustedFiltersFrom(shown);
  const judged = judgeDrivers(read.config.drivers, trusted);
  const names = [...new Set(judged.map((d) => d.name))];
  return names.map((name) => {
    const commands = judged.filter((d) => d.name === name);
    const untrusted = commands.filter((c) => !c.trusted).map((c) => c.command);
    return {
      name,
      commands: commands.map((c) => ({ key: c.key, command: c.command, trusted: c.trusted, reason: c.reason })),
      trusted: untrusted.length === 0,
      ...(untrusted.length > 0 ? { line: trustLine(trusted, untrusted) } : {}),
    };
  });
}
