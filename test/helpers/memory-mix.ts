// The calls the two memory tests (test/stress/mcp-load.test.ts, mcp-heap.test.ts) repeat 1,000 times: status
// resolves the project and spawns git (about 50 ms), so it is one call in eight; the manual and map reads (2 to
// 16 ms) stay in process. Every call answers ok in a project with a map (docs/decisions/0038).
export const MEMORY_MIX: readonly (readonly [name: string, args: Record<string, unknown>])[] = [
  ['discern_status', {}],
  ['discern_docs', { search: 'proof' }],
  ['discern_docs', { target: 'exit-codes' }],
  ['discern_map', { search: 'start' }],
  ['discern_docs', { target: 'exit-codes' }],
  ['discern_docs', { search: 'proof' }],
  ['discern_map', { search: 'start' }],
  ['discern_docs', { target: 'exit-codes' }],
];
