// releases: discern's own release history, bundled at generation time from spec/releases.yaml (checked there
// against spec/releases.schema.json, published as schema/discern-releases.schema.json). Nothing is fetched.
import type { ReleasesOutcome } from '../../generated/handlers.js';
import { RELEASES } from '../../generated/releases.js';
import { VERSION } from '../../generated/version.js';

export async function releases(): Promise<ReleasesOutcome> {
  const latestStable = RELEASES.find((r) => r.channel === 'stable')?.version ?? null;
  return { data: { current: VERSION, latest_stable: latestStable, releases: [...RELEASES] } };
}
