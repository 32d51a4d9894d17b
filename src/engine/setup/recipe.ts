// Reads a setup recipe (`setup begin --config <file>`): JSON, or TOML when the name ends in .toml, validated
// against the published schema/discern-setup-config.schema.json. A problem names the key and, where it can be
// found, the line and column in the recipe.
import { readFile, stat } from 'node:fs/promises';
import type { DiscernSetupConfig } from '../../../generated/types.js';
import { dotted } from '../config/load-result.js';
import { locateKey, type Location } from '../config/locate.js';
import { locateJsonKey } from '../config/locate-json.js';
import { jobAccountingIssues } from '../config/job-accounting.js';
import { decodeToml } from '../config/toml.js';
import { explain, mostSpecific, pointerKeys } from '../config/validate.js';

export type RecipeLoad =
  { ok: true; recipe: DiscernSetupConfig } | { ok: false; message: string; where: string; line?: number };

/** A recipe is a few dozen lines; the bound keeps `--config /dev/zero` (or a huge file) from hanging setup. */
const MAX_RECIPE_BYTES = 256 * 1024;

export async function loadRecipe(path: string): Promise<RecipeLoad> {
  let bytes: Buffer;
  try {
    const info = await stat(path);
    if (!info.isFile())
      return { ok: false, message: `The setup recipe ${path} is not a regular file.`, where: 'the file itself' };
    if (info.size > MAX_RECIPE_BYTES)
      return {
        ok: false,
        message: `The setup recipe ${path} has ${info.size} bytes; a recipe is at most 256 KiB.`,
        where: 'the file itself',
      };
    bytes = await readFile(path);
  } catch (error) {
    return {
      ok: false,
      message: `The setup recipe ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      where: 'the file itself',
    };
  }
  const toml = /\.toml$/i.test(path);
  let value: unknown;
  let text: string;
  if (toml) {
    const decoded = decodeToml(bytes, path);
    if (!decoded.ok) {
      const [issue] = decoded.problem.issues;
      return {
        ok: false,
        message: `The setup recipe ${decoded.problem.message}`,
        where: decoded.problem.where,
        ...(issue?.line !== undefined ? { line: issue.line } : {}),
      };
    }
    value = decoded.value;
    text = decoded.text;
  } else {
    text = bytes.toString('utf8');
    try {
      value = JSON.parse(text) as unknown;
    } catch (error) {
      const at = jsonErrorLocation(text, (error as Error).message);
      const where = at ? `line ${at.line}, column ${at.column}` : 'the start of the file';
      // V8 quotes the text's first characters (`"root:x:0:0"... is not valid JSON`): the line and column say where,
      // without echoing a file the caller may have named by mistake.
      const reason = (error as Error).message.replace(/, ".*?"(?:\.\.\.)? is not valid JSON$/s, '');
      return {
        ok: false,
        message: `The setup recipe ${path} is not valid JSON (${reason}); name it *.toml if it is TOML.`,
        where,
        ...(at ? { line: at.line } : {}),
      };
    }
  }
  const { validateSetupConfig } = await import('../../../generated/validators/setup-config.js');
  if (validateSetupConfig(value)) {
    // The draft holds the recipe's jobs as they are: one the draft could not load is refused here, not there.
    const [conflict] = jobAccountingIssues({ jobs: value.jobs ?? {} });
    if (conflict === undefined) return { ok: true, recipe: value };
    return refused(path, text, toml, conflict.keys, conflict.message);
  }
  const errors = validateSetupConfig.errors ?? [];
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  const chosen = unknown ?? mostSpecific(errors);
  const keys = chosen ? pointerKeys(chosen.instancePath) : [];
  if (unknown) keys.push(String((unknown.params as { additionalProperty: string }).additionalProperty));
  const detail = unknown
    ? 'is not a key a setup recipe accepts'
    : chosen
      ? explain(chosen)
      : 'does not match the setup recipe schema';
  return refused(path, text, toml, keys, detail);
}

function refused(path: string, text: string, toml: boolean, keys: string[], detail: string): RecipeLoad {
  const at = (toml ? locateKey : locateJsonKey)(text, keys);
  const key = keys.length > 0 ? dotted(keys) : 'the recipe';
  const where = at ? `\`${key}\` (line ${at.line})` : `\`${key}\``;
  return {
    ok: false,
    message: `The setup recipe ${path}: \`${key}\` ${detail}${at ? ` (line ${at.line}, column ${at.column})` : ''}; see schema/discern-setup-config.schema.json.`,
    where,
    ...(at ? { line: at.line } : {}),
  };
}

/** V8 names a JSON syntax error by position (Node 20) or by line and column (later versions). */
function jsonErrorLocation(text: string, message: string): Location | undefined {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  const before = text.slice(0, Number(position[1]));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
}
