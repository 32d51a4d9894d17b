// The YAML diagnostic block under a TAP result (`  ---` … `  ...`), read as far as test reporters use it: scalars
// (plain, '…', "…"), block scalars (`|`, `|-`, `>`), and one level of nested map (tap's `at:` with fileName and
// lineNumber). Lists and deeper structures are skipped. Not a YAML parser: a misread value only costs a field.
export type TapYaml = Map<string, string | Map<string, string>>;

const KEY = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/;

/** Reads the block starting at the `---` line `at`; returns the fields and the index of its `...` line. */
export function readTapYaml(lines: readonly string[], at: number): { fields: TapYaml; end: number } {
  const open = lines[at] ?? '';
  const indent = open.length - open.trimStart().length;
  const fields: TapYaml = new Map();
  let i = at + 1;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '...' && depth(line) === indent) break;
    if (line.trim() !== '' && depth(line) < indent) return { fields, end: i - 1 };
    if (depth(line) !== indent) continue;
    const key = KEY.exec(line.slice(indent));
    if (key === null) continue;
    const name = key[1] ?? '';
    const value = (key[2] ?? '').trim();
    if (value === '' || /^[|>][-+]?$/.test(value)) {
      const body = childLines(lines, i + 1, indent);
      i = body.end;
      if (value === '') fields.set(name, nestedMap(body.lines));
      else fields.set(name, value.startsWith('>') ? body.lines.map((l) => l.trim()).join(' ') : body.lines.join('\n'));
      continue;
    }
    fields.set(name, scalar(value));
  }
  return { fields, end: i };
}

function depth(line: string): number {
  return line.length - line.trimStart().length;
}

/** The lines indented deeper than `indent` from `from`, dedented to their common indentation. */
function childLines(lines: readonly string[], from: number, indent: number): { lines: string[]; end: number } {
  const body: string[] = [];
  let i = from;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() !== '' && depth(line) <= indent) break;
    body.push(line);
  }
  while (body.length > 0 && (body[body.length - 1] ?? '').trim() === '') body.pop();
  const common = Math.min(...body.filter((l) => l.trim() !== '').map(depth));
  return { lines: body.map((l) => l.slice(Number.isFinite(common) ? common : 0)), end: i - 1 };
}

function nestedMap(lines: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines) {
    if (/^\s/.test(line)) continue;
    const key = KEY.exec(line);
    if (key !== null && key[2] !== undefined) map.set(key[1] ?? '', scalar(key[2].trim()));
  }
  return map;
}

function scalar(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value.slice(1, -1);
    }
  }
  return value;
}
