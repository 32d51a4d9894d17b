// Project slugs, as [project] slug allows them: what identity derives and what setup proposes.
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
const SLUG_MAX = 63;

/**
 * A slug from any text: accents dropped, lower case, every run of other characters one `-`, no `-` at either end,
 * at most 63 characters (or `max`). Undefined when nothing is left.
 */
export function slugify(text: string, max: number = SLUG_MAX): string | undefined {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, Math.min(max, SLUG_MAX))
    .replace(/-+$/, '');
  return SLUG.test(slug) ? slug : undefined;
}
