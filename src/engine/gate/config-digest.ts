// A digest of the configuration a gate ran under (see canonical-json.ts): part of the evidence key and the
// Proof id. Proof and replayed evidence are only current under the same digest.
import { createHash } from 'node:crypto';
import type { DiscernConfig } from '../../../generated/types.js';
import { configIdentity } from './canonical-json.js';

export { canonicalJson } from './canonical-json.js';

export function configDigest(config: DiscernConfig, trunk: string): string {
  return createHash('sha256').update(configIdentity(config, trunk)).digest('hex');
}
