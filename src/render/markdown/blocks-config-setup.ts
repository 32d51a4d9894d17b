// Blocks for the config, refresh and setup presentations: what a template cannot say without code — a value
// written as TOML, an explanation's first line as its heading, a refresh row's change against what was written,
// the doctor checks a setup did not pass, and a count over several lists.
import type { DiscernDoctorCheck, DiscernRefreshResult } from '../../../generated/types.js';
import { formatValue, type TomlValue } from '../../engine/toml-edit/format.js';
import type { Block } from '../template/evaluate.js';
import { code, table } from './blocks.js';

type RefreshChange = Extract<NonNullable<DiscernRefreshResult['data']>, { changes: unknown }>['changes'][number];

const DONE = { create: 'created', update: 'updated', delete: 'removed' } as const;
const WOULD = { create: 'create', update: 'update', delete: 'remove' } as const;

/** A value as discern.toml writes it, in inline code; "(none)" when absent. */
function tomlLiteral(value: unknown): string {
  if (value === undefined) return '(none)';
  try {
    return formatValue(value as TomlValue);
  } catch {
    return JSON.stringify(value);
  }
}

export const CONFIG_SETUP_BLOCKS = {
  /** `{{> toml-value data.value}}`: the value as a TOML literal, in inline code. */
  'toml-value': ([value]) => code(tomlLiteral(value)),
  /** `{{> explanation data.explanation}}`: the first line in bold, each further line a paragraph. */
  explanation: ([text]) => {
    const [head, ...rest] = (typeof text === 'string' ? text : '').split('\n');
    return [`**${head ?? ''}**`, ...rest].join('\n\n');
  },
  /** `{{> refresh-change this}}` in a refresh row: what happened to the file, or would, or was not written. */
  'refresh-change': ([change], result) => {
    const r = result as DiscernRefreshResult;
    const c = change as RefreshChange;
    const would = WOULD[c.action as keyof typeof WOULD] ?? c.action;
    if (r.dry_run) return `would ${would}`;
    const d = r.data && 'changes' in r.data ? r.data : undefined;
    const written = new Set(
      d
        ? [
            ...d.agents_written,
            ...d.mcp_wired,
            ...d.hooks_wired,
            ...d.adr_index_written,
            ...d.skills.copied,
            ...d.skills.pruned,
            ...d.removed,
          ]
        : [],
    );
    return written.has(c.path) ? (DONE[c.action as keyof typeof DONE] ?? c.action) : `${would} (not written)`;
  },
  /** `{{> total 'file' data.stripped data.removed}}`: the items of several lists counted together, with the noun ("14 files"). */
  total: ([noun, ...lists]) => {
    const n = lists.reduce<number>((sum, list) => sum + (Array.isArray(list) ? list.length : 0), 0);
    return `${n} ${String(noun)}${n === 1 ? '' : 's'}`;
  },
  /** `{{> failed-checks data.checks}}`: the doctor checks that did not pass, with their fixes. */
  'failed-checks': ([checks]) => {
    const failed = ((checks ?? []) as DiscernDoctorCheck[]).filter((c) => c.status !== 'ok');
    if (failed.length === 0) return undefined;
    return `## Doctor\n\n${table(
      ['Check', 'Status', 'Detail'],
      failed.map((c) => [c.name, c.status, `${c.detail}${c.fix ? ` — ${c.fix}` : ''}`]),
    )}`;
  },
} satisfies Record<string, Block>;
