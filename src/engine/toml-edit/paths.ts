// Every edit names a key: an empty path would name the whole document.
import { TomlEditError } from './errors.js';

export function requirePath(path: readonly string[]): void {
  if (path.length === 0) throw new TomlEditError('an empty key path names the whole document, not a key');
}
