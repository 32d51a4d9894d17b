// The parsed form of a presentation template (spec/verbs/<verb>/presentation.md). Codegen parses and checks
// each template once and emits this tree as data into generated/presentations.ts; the runtime only walks it.

/** A value: a path into the result (or the current item), or a literal. */
export type Value =
  { path: string[]; from: 'root' | 'item' | 'meta' | 'bound' } | { literal: string | number | boolean | null };

export type CompareOp = '==' | '!=' | '>' | '<' | '>=' | '<=';

/** One comparison or truthiness test, optionally negated. */
export interface Test {
  not?: true;
  left: Value;
  op?: CompareOp;
  right?: Value;
}

/** Tests joined by `or` of `and`s: [[a, b], [c]] is (a and b) or c. */
export type Condition = Test[][];

export interface Filter {
  name: string;
  args: Value[];
}

export type Node =
  | { text: string }
  | { value: Value; filters: Filter[] }
  | { if: { when: Condition; then: Node[] }[]; else?: Node[] }
  | { each: Value; as?: string; body: Node[]; empty?: Node[] }
  | { block: string; args: Value[] };

/** The sections of a presentation, in the order every document keeps. */
export const SECTIONS = ['state', 'evidence', 'authority', 'owner'] as const;
export type SectionName = (typeof SECTIONS)[number];

export type Template = Partial<Record<SectionName, Node[]>> & { state: Node[] };
