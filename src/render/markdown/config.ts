// Authored Markdown for the config commands and tidy: the key and its value (as TOML), what was written or
// would have been, the files tidied, the steps, then the next action.
import type { DiscernResult } from '../../../generated/types.js';
import { formatValue, type TomlValue } from '../../engine/toml-edit/format.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';
import { stepsSection } from './gate.js';

type ConfigVerb =
  | 'config get'
  | 'config has'
  | 'config keys'
  | 'config subsections'
  | 'config array'
  | 'config explain'
  | 'config set'
  | 'config set-job'
  | 'config set-scope'
  | 'config set-standard'
  | 'tidy';
type ConfigResult = Extract<DiscernResult, { verb: ConfigVerb }>;

export function renderConfig(result: ConfigResult): string {
  const title = `discern ${result.verb}`;
  const data = (result.data && !('issues' in result.data) ? result.data : undefined) as Record<string, unknown> | undefined;
  const facts = data ? describe(result.verb, data) : undefined;
  const evidence = stepsSection(result.steps);
  if (!result.ok) return frame(result, { state: [failureState(result, title), facts].filter(Boolean).join('\n\n'), evidence });
  return frame(result, { state: [`# ${title}`, facts].filter(Boolean).join('\n\n'), evidence });
}

function describe(verb: ConfigVerb, data: Record<string, unknown>): string | undefined {
  const key = typeof data['key'] === 'string' ? code(data['key']) : undefined;
  const file = typeof data['file'] === 'string' ? `- File: ${code(data['file'])}` : undefined;
  const list = (items: unknown, empty: string): string => (Array.isArray(items) && items.length > 0 ? items.map((i) => `- ${code(String(i))}`).join('\n') : empty);
  switch (verb) {
    case 'config get':
    case 'config array':
      return [data['present'] ? `- ${key} = ${code(literal(data['value']))}` : `- ${key} is not set`, suggestions(data), file].filter(Boolean).join('\n');
    case 'config has':
      return [`- ${key} is ${data['present'] ? 'set' : 'not set'}`, file].filter(Boolean).join('\n');
    case 'config keys':
    case 'config subsections': {
      const section = typeof data['section'] === 'string' ? ` under ${code(data['section'])}` : '';
      return [`${verb === 'config keys' ? 'Keys set' : 'Tables'}${section}:`, list(data['keys'], '(none)'), file].filter(Boolean).join('\n\n');
    }
    case 'config explain': {
      const explanation = typeof data['explanation'] === 'string' ? data['explanation'] : '';
      const [head, ...rest] = explanation.split('\n');
      return [`**${head ?? ''}**`, ...rest].join('\n\n');
    }
    case 'tidy': {
      const files = Array.isArray(data['files']) ? (data['files'] as { path: string; changed: boolean }[]) : [];
      if (files.length === 0) return 'No files to tidy.';
      return files.map((f) => `- ${code(f.path)}: ${f.changed ? 'tidied' : 'already tidy'}`).join('\n');
    }
    default: {
      const lines = [`- ${key} = ${code(literal(data['value']))}`];
      if (data['previous'] !== undefined) lines.push(`- Was ${code(literal(data['previous']))}`);
      lines.push(`- ${data['changed'] ? (data['created'] ? 'Created the file' : 'Written') : 'Not written'}`);
      if (file) lines.push(file);
      return lines.join('\n');
    }
  }
}

function suggestions(data: Record<string, unknown>): string | undefined {
  const list = data['suggestions'];
  return Array.isArray(list) && list.length > 0 ? `- Close keys: ${list.map((s) => code(String(s))).join(', ')}` : undefined;
}

function literal(value: unknown): string {
  if (value === undefined) return '(none)';
  try {
    return formatValue(value as TomlValue);
  } catch {
    return JSON.stringify(value);
  }
}
