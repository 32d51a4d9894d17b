// A key this discern does not know may be one a newer discern introduced. The file says which discern drafted
// it ([meta] setup_version): when that is newer than this one, an unknown key's message names it, so the fix
// (update discern) is not mistaken for a typo. Nothing else in the file can say where a key came from.
import { VERSION } from '../../../generated/version.js';

/** The drafting version, when the decoded file names one newer than this discern. */
export function newerDrafter(value: unknown, current: string = VERSION): string | undefined {
  const meta = (value as { meta?: { setup_version?: unknown } } | undefined)?.meta;
  const drafted = meta?.setup_version;
  if (typeof drafted !== 'string') return undefined;
  const a = release(drafted);
  const b = release(current);
  if (a === undefined || b === undefined) return undefined;
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0) ? drafted : undefined;
  return undefined;
}

/** `major.minor.patch` of a version string (a prerelease or build suffix is ignored), or undefined. */
function release(version: string): number[] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** The sentence an unknown key's message gains when a newer discern drafted the file. */
export function newerKeyNote(drafted: string, current: string = VERSION): string {
  return `this file was drafted by discern ${drafted}, newer than this discern (${current}), which may have introduced it: update discern`;
}
