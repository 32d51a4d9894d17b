// Reading values: the parsed value at a path, as plain data.
import { lookup, parseTree } from './values.js';

/** The value at `path` (a table as a plain object), or undefined when the key is not set. */
export function getValue(text: string, path: readonly string[]): unknown {
  return lookup(parseTree(text), path);
}
