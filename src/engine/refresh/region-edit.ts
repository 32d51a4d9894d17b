// discern's region in a text file as refresh edits it: set to what refresh writes, or taken out, unless the
// region there is the user's (isDiscernsRegion in ownership.ts has the rule). Then the file is left as it is,
// with how to hand the region back. Broken markers are refused, naming their line.
import { findRegion, stripRegion, upsertRegion, type RegionSyntax } from '../wiring/regions.js';
import { isDiscernsRegion, regionDigest, regionKey, type OwnedPart, type Ownership } from './ownership.js';

/**
 * A file's new text. `skipped` says what was left alone in it (the text may still change elsewhere); `owns`
 * names discern's parts of the new text.
 */
export type Edit =
  | { ok: true; text: string | null; skipped?: string; owns?: OwnedPart[] }
  | { ok: false; where: string; reason: string };

/** The region set to `full` (see upsertRegion), whoever's it is: the callers below decide that. */
export function region(text: string | null, syntax: RegionSyntax, full: string): Edit {
  const edit = upsertRegion(text, full, syntax);
  return edit.ok
    ? { ok: true, text: edit.text }
    : { ok: false, where: `line ${edit.line}`, reason: `${edit.reason} (line ${edit.line})` };
}

/** The edit, naming `part` as discern's when it writes discern's part (not when it leaves the file alone). */
export function owning(edit: Edit, part: OwnedPart): Edit {
  return edit.ok && edit.skipped === undefined && edit.text !== null ? { ...edit, owns: [part] } : edit;
}

/** The region `name` set to `full`, unless the one in the file is the user's (see isDiscernsRegion). */
export function ownedRegion(
  text: string | null,
  at: string,
  name: string,
  syntax: RegionSyntax,
  full: string,
  owned: Ownership,
): Edit {
  const part = { key: regionKey(at, name), digest: regionDigest(full) };
  return handEdited(text, at, name, syntax, full, owned) ?? owning(region(text, syntax, full), part);
}

/** The file left as it is when its region was edited by hand, with how to hand it back; else undefined. */
export function handEdited(
  text: string | null,
  at: string,
  name: string,
  syntax: RegionSyntax,
  ours: string | undefined,
  owned: Ownership,
): Edit | undefined {
  if (text === null) return undefined;
  // A file whose regions cannot be found is refused by the edit itself, naming the line.
  const found = findRegion(text, syntax);
  if (!found.ok || found.span === undefined) return undefined;
  const { start, end, inner, line, stamp } = found.span;
  if (isDiscernsRegion({ text: text.slice(start, end), inner, stamp }, ours, regionKey(at, name), owned))
    return undefined;
  return {
    ok: true,
    text,
    skipped: `${at} has a discern region (line ${line}) that is not what refresh wrote there, so it is taken as edited by hand and left as it is; to hand it back to discern, delete the lines between its discern:begin and discern:end and run \`discern refresh\``,
  };
}

/** The file without its region (null when nothing else was in it), unless the region is the user's. */
export function stripped(text: string | null, at: string, name: string, syntax: RegionSyntax, owned: Ownership): Edit {
  if (text === null) return { ok: true, text };
  const kept = handEdited(text, at, name, syntax, undefined, owned);
  if (kept !== undefined) return kept;
  const edit = stripRegion(text, syntax);
  if (!edit.ok) return { ok: false, where: `line ${edit.line}`, reason: `${edit.reason} (line ${edit.line})` };
  return { ok: true, text: edit.text === '' ? null : edit.text };
}
