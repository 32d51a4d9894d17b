// git's rules for a branch name (git check-ref-format --branch), checked without spawning git. A trunk named
// in config or DISCERN_TRUNK must be a plain branch name: `main~0` or `main@{0}` would otherwise resolve as
// revision expressions and pass for a branch that does not exist.

export function branchNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  // git allows branches named so, but every command would read them as the current commit instead.
  if (name === 'HEAD' || name === '@') return `"${name}" names the current commit, not a branch`;
  if (name.startsWith('-')) return 'it starts with "-"';
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name))
    return 'it contains a space, a control character, or one of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'it contains ".."';
  if (name.includes('@{')) return 'it contains "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'it has an empty path component';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return 'a component starts with "."';
    if (component.endsWith('.lock')) return 'a component ends with ".lock"';
  }
  return undefined;
}
