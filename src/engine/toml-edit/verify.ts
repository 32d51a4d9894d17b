// Every edit is checked before it is returned: the new text must parse, and its data must be exactly the data
// the edit meant (the old tree with the one change), so an edit can never disturb another key unnoticed.
import { TomlEditError } from './errors.js';
import { dotted, parseTree, sameData, type Tree } from './values.js';

export function verified(result: string, expected: Tree, what: string, path: readonly string[]): string {
  let tree: Tree;
  try {
    tree = parseTree(result);
  } catch (error) {
    const reason = error instanceof TomlEditError ? error.reason : String(error);
    throw new TomlEditError(
      `${what} \`${dotted(path)}\` would leave text that is ${reason.replace(/^not valid TOML: /, 'not valid TOML: ')}`,
    );
  }
  if (!sameData(tree, expected))
    throw new TomlEditError(
      `${what} \`${dotted(path)}\` cannot be written in this file's layout without changing other keys`,
    );
  return result;
}

/** Runs `edit`, returning its result when it verifies, or undefined when it throws a TomlEditError. */
export function attempt(edit: () => string): string | undefined {
  try {
    return edit();
  } catch (error) {
    if (error instanceof TomlEditError) return undefined;
    throw error;
  }
}
