// The lines refresh owns in .gitattributes: `<path> linguist-generated=true` for each path of a [generated]
// table that sets linguist_generated, so GitHub folds the generator's output away in diffs and leaves it out of
// the language statistics. They sit in one region between `# discern:begin` and `# discern:end` comment lines;
// every other line of the file is the project's. Each path is written as .gitattributes says the same thing
// (attributePattern); one it cannot say is left out, with a hint.
import type { DiscernConfig } from '../../../generated/types.js';

export const GITATTRIBUTES = '.gitattributes';
export const GITATTRIBUTES_REGION = 'linguist';
export const GITATTRIBUTES_NOTE = 'written by discern refresh from [generated] tables with linguist_generated';

export interface LinguistLines {
  /** The region's body; empty when no table asks for it. */
  body: string;
  /** Paths a .gitattributes line cannot say with the same meaning, each with why. */
  left: { path: string; why: string }[];
}

export function linguistLines(config: DiscernConfig): LinguistLines {
  const lines: string[] = [];
  const left: LinguistLines['left'] = [];
  for (const generator of Object.values(config.generated ?? {})) {
    if (generator?.linguist_generated !== true) continue;
    for (const raw of generator.paths) {
      const pattern = attributePattern(raw.replace(/^(\.\/)+/, ''));
      if ('why' in pattern) left.push({ path: raw, why: pattern.why });
      else if (!lines.includes(`${pattern.line} linguist-generated=true`))
        lines.push(`${pattern.line} linguist-generated=true`);
    }
  }
  return { body: lines.join('\n'), left };
}

/**
 * A discern path pattern as .gitattributes says the same thing. `*.ext` matches at any depth in both; a pattern
 * with a slash inside is taken from the root in both; `/seg/` (a directory anywhere) becomes that directory at
 * any depth; a name with no slash matches only at the root for discern, so it is anchored with a leading slash.
 * What .gitattributes cannot say (whitespace, braces, a leading `#` or `!`) is left out.
 */
function attributePattern(path: string): { line: string } | { why: string } {
  if (/\s/.test(path)) return { why: 'it holds whitespace, which ends a .gitattributes pattern' };
  if (/[{}]/.test(path)) return { why: '.gitattributes has no {a,b} alternatives' };
  if (/^[#!]/.test(path)) return { why: 'a .gitattributes line cannot start a pattern with # or !' };
  const segment = /^\/([^/*?[\]]+)\/$/.exec(path);
  if (segment) return { line: `**/${segment[1] ?? ''}/**` };
  if (/^\*\.[^/]+$/.test(path)) return { line: path };
  if (!path.includes('/')) return { line: `/${path}` };
  return { line: path };
}
