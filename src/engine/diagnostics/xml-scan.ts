// A tolerant, linear scan over XML tags: enough for JUnit reports, which are flat and machine-written, without
// an XML library. It never throws; malformed input just yields fewer (or odder) tags. Comments, CDATA,
// processing instructions and doctypes are stepped over so that "<" inside them is not taken for a tag.

export interface Tag {
  name: string;
  attrs: ReadonlyMap<string, string>;
  /** Index of "<" and index just after ">". */
  start: number;
  end: number;
  closing: boolean;
  selfClosing: boolean;
}

const SKIPS: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

export function* scanTags(xml: string, from = 0, to = xml.length): Generator<Tag> {
  let at = xml.indexOf('<', from);
  while (at !== -1 && at < to) {
    const skip = SKIPS.find(([open]) => xml.startsWith(open, at));
    if (skip !== undefined) {
      const close = xml.indexOf(skip[1], at + skip[0].length);
      if (close === -1) return;
      at = xml.indexOf('<', close + skip[1].length);
      continue;
    }
    const end = tagEnd(xml, at + 1);
    if (end === -1) return;
    if (xml[end] === '<') {
      // Not a tag after all (an unescaped "<" in text); the next "<" may be one.
      at = end;
      continue;
    }
    const tag = parseTag(xml.slice(at + 1, end), at, end + 1);
    if (tag !== undefined) yield tag;
    at = xml.indexOf('<', end + 1);
  }
}

// The ">" that ends a tag, skipping ">" inside quoted attribute values (node writes `message="a &lt;b> c"`).
// "<" is not allowed anywhere inside a tag, quoted or not, so meeting one means this was not a tag: its index
// is returned and the scan resumes there. That keeps the whole scan linear even on garbage.
function tagEnd(xml: string, from: number): number {
  let quote = '';
  let previous = '';
  for (let i = from; i < xml.length; i++) {
    const c = xml[i];
    if (c === '<') return i;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if ((c === '"' || c === "'") && previous === '=') {
      quote = c;
    } else if (c === '>') {
      return i;
    }
    if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') previous = c ?? '';
  }
  return -1;
}

const NAME = /^\/?\s*([A-Za-z_][\w:.-]*)/;
// A name may start only where no name character precedes it: without the lookbehind a long run of name
// characters with no "=" (`<testsuite aaaa…>`) is retried from every position in it, which is quadratic. A quote
// may precede it: some writers put no space between attributes (`name="a"file="b"`), and that read as before.
const ATTR = /(?<![^\s=/>"'])([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function parseTag(inner: string, start: number, end: number): Tag | undefined {
  const name = NAME.exec(inner);
  if (name === null || name[1] === undefined) return undefined;
  const closing = inner.startsWith('/');
  const attrs = new Map<string, string>();
  if (!closing) {
    for (const m of inner.slice(name[0].length).matchAll(ATTR)) {
      const key = m[1];
      if (key !== undefined && !attrs.has(key)) attrs.set(key, decodeXml(m[2] ?? m[3] ?? ''));
    }
  }
  return { name: name[1], attrs, start, end, closing, selfClosing: !closing && inner.trimEnd().endsWith('/') };
}

// A Map, not an object literal: "&constructor;" must not find Object.prototype.
const NAMED: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** Element text: CDATA sections unwrapped, entity and character references decoded, everything else as written. */
export function decodeXml(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const cdata = text.indexOf('<![CDATA[', at);
    const plain = cdata === -1 ? text.slice(at) : text.slice(at, cdata);
    out += plain.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, ref: string) => entity(ref) ?? all);
    if (cdata === -1) break;
    const close = text.indexOf(']]>', cdata + 9);
    out += close === -1 ? text.slice(cdata + 9) : text.slice(cdata + 9, close);
    at = close === -1 ? text.length : close + 3;
  }
  return out;
}

function entity(ref: string): string | undefined {
  if (ref.startsWith('#')) {
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    // Surrogate halves are not characters; left encoded rather than producing broken UTF-16.
    const character = Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return character ? String.fromCodePoint(code) : undefined;
  }
  return NAMED.get(ref.toLowerCase());
}
