// Large generated tables are written as JSON text that the module parses when it loads: V8 parses JSON faster than
// it builds the same object literal, and the code cache holds one string instead of the code that builds it.
// Every character beyond ASCII is a \u escape, so the text is one byte per character in V8: half the memory of
// the same text with a single non-ASCII character in it, and parsed faster.

/** The value as ASCII-only JSON text. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A TypeScript expression that evaluates to the value: `JSON.parse("…")`. */
export function parsedJson(value: unknown): string {
  return `JSON.parse(${JSON.stringify(asciiJson(value))})`;
}
