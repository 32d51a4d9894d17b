// Hostile argv over the CLI in process, shard 2 of 3: see in-process-suite.ts (the property, the seed) and
// cli-shards.ts (which commands this file runs).
import { hostileCliInProcess } from './in-process-suite.js';

hostileCliInProcess(1, 3);
