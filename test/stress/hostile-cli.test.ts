// Hostile argv over the CLI in process, shard 1 of 3: see in-process-suite.ts (the property, the seed) and
// cli-shards.ts (which commands this file runs).
import { hostileCliInProcess } from './in-process-suite.js';

hostileCliInProcess(0, 3);
