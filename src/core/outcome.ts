// The handler-facing outcome types are generated beside the handler interface (generated/outcome.ts), so
// generated code never imports hand-written code; the core works with them through this module.
export type { AnyOutcome, DerivedPostcondition, Outcome, Refusal } from '../../generated/outcome.js';
