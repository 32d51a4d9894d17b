// The comment-preserving TOML editor: pure functions from text to text that change nothing outside the edited
// span (comments, order, blank lines, spacing and CRLF line endings stay), each checked by parsing its result
// (see docs/decisions/0019-toml-editor.md). Unparseable input, or an edit that cannot be applied, throws
// TomlEditError with a line and column where there is one.
export { TomlEditError } from './errors.js';
export { formatKey, formatKeyPath, formatValue, type TomlValue } from './format.js';
export { getValue } from './read.js';
export { setTable, setValue } from './set.js';
export { removeKey } from './remove.js';
export { renameKey } from './rename.js';
export { parseTree } from './values.js';
