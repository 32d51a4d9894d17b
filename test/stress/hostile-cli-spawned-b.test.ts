// Hostile argv as real processes, shard 2 of 2: see spawned-suite.ts and cli-shards.ts.
import { hostileCliSpawned } from './spawned-suite.js';

hostileCliSpawned(1, 2);
