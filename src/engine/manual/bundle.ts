// The manual bundled at generation time (codegen/emit/manual.ts writes generated/manual.ts from docs/),
// typed here so that generated code does not depend on hand-written types.
import { MANUAL_DATA } from '../../../generated/manual.js';
import type { IndexedCorpus } from '../corpus/types.js';

export const MANUAL = MANUAL_DATA as IndexedCorpus;
