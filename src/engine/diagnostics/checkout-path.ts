// Tools print paths in whatever form they were given or resolved: eslint and Python print absolute paths,
// SARIF uses file:// URIs. Diagnostics point into the checkout, so a path under the job's cwd becomes relative
// (with forward slashes); anything else is kept as the tool printed it.
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export function checkoutPath(raw: string, cwd?: string): string | undefined {
  let path = raw.trim();
  if (path === '') return undefined;
  if (/^file:/i.test(path)) {
    try {
      path = fileURLToPath(path);
    } catch {
      // Malformed or foreign-host URIs: dropping the scheme still leaves something a person can read.
      path = path.replace(/^file:(?:\/\/)?/i, '');
    }
  }
  if (cwd !== undefined && cwd !== '' && isAbsolute(path)) {
    const rel = relative(cwd, path);
    const outside = rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
    if (!outside) return rel.split(sep).join('/');
  }
  return path;
}

/** Whether a path as checkoutPath made it lies in the checkout: relative, with no `..` step out of it. */
export function inCheckout(path: string): boolean {
  return !isAbsolute(path) && !path.startsWith('/') && !/(^|[/\\])\.\.([/\\]|$)/.test(path);
}
