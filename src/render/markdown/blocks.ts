// Small Markdown building blocks shared by the per-verb presentations.
import type { DiscernConfigIssue } from '../../../generated/types.js';
import { inlineCode } from '../template/filters.js';

/** Escapes text for a table cell: pipes and line breaks would end the cell. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

export const code = inlineCode;

/**
 * Joins sections with one blank line, dropping empty ones; ends with a newline. A template's section is already
 * tidied, so a trailing line break left in one belongs to a whitespace-significant payload (a page that ends in
 * blank lines) and is kept: the payload's bytes are exact, and the document ends right after them.
 */
export function document(sections: readonly (string | undefined | false)[]): string {
  const text = sections.filter((s): s is string => typeof s === 'string' && s.length > 0).join('\n\n');
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** discern.toml problems, one a line, each with its dotted key and, when known, its line and column. */
export function configIssueList(issues: readonly DiscernConfigIssue[]): string {
  return issues
    .map(
      (i) =>
        `- ${code(i.path)}${i.line !== undefined ? ` (line ${i.line}${i.column !== undefined ? `, column ${i.column}` : ''})` : ''}: ${i.message}`,
    )
    .join('\n');
}
