// What a map page cites: relative Markdown links and backticked paths that name a tracked file. These are the
// files whose changes can make the page stale.
import { posix } from 'node:path';

const LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const INLINE_CODE = /`([^`\s]+)`/g;

/**
 * Repository-relative paths of tracked files the page cites. `pageDir` is the page's folder relative to the
 * repository root; links are resolved against it, backticked paths are read as repository-relative.
 */
export function citedFiles(content: string, pageDir: string, tracked: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(LINK)) {
    const target = (match[1] ?? '').split('#')[0] ?? '';
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    let decoded = target;
    try {
      decoded = decodeURIComponent(target);
    } catch {
      // keep it as written
    }
    const resolved = posix.normalize(posix.join(pageDir, decoded));
    if (!resolved.startsWith('../') && tracked.has(resolved)) found.add(resolved);
  }
  for (const match of content.matchAll(INLINE_CODE)) {
    const candidate = (match[1] ?? '').replace(/^\.\//, '');
    if (tracked.has(candidate)) found.add(candidate);
  }
  return [...found].sort();
}
