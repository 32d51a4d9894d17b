// Results leave every surface through here: undefined fields are omitted (never null, never "undefined"), so
// the JSON text, MCP structuredContent and validators all see the same compact object.

/** A deep copy without undefined object fields; array holes become omitted elements' absence is kept as-is. */
export function compact<T>(value: T): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = strip(v);
  return out;
}

/** One result as compact JSON text (one line, no trailing newline). */
export function serializeResult(result: object): string {
  return JSON.stringify(compact(result));
}
