// met/unmet as a call gives them: over MCP `met: [id]` and `unmet: [{id, why}]`; on the CLI `--met <id>` and
// `--unmet <id> --why <text>`, repeated and paired in order. Checked against the questions the change raises:
// a declaration names a firing checkpoint, at most once, met or unmet but not both.
import type { CheckpointEvaluation } from './evaluate-revision.js';
import type { Declarations } from './store.js';

export interface DeclarationInput {
  met?: readonly string[];
  unmet?: readonly { id: string; why: string }[];
  unmet_id?: readonly string[];
  why?: readonly string[];
}

/** The declarations given, or why they cannot be read (an arguments problem: nothing was evaluated yet). */
export function declarationsFrom(
  input: DeclarationInput,
): { ok: true; declarations: Declarations; given: boolean } | { ok: false; message: string } {
  const ids = input.unmet_id ?? [];
  const whys = input.why ?? [];
  if (ids.length !== whys.length) {
    return {
      ok: false,
      message: `each --unmet needs its own --why, in order: ${ids.length} --unmet and ${whys.length} --why were given.`,
    };
  }
  const unmet = [...(input.unmet ?? []), ...ids.map((id, i) => ({ id, why: whys[i] ?? '' }))];
  const met = [...(input.met ?? [])];
  const seen = new Set<string>();
  for (const id of [...met, ...unmet.map((u) => u.id)]) {
    if (seen.has(id))
      return {
        ok: false,
        message: `checkpoint "${id}" is declared more than once: declare each question met or unmet, once.`,
      };
    seen.add(id);
  }
  for (const u of unmet)
    if (u.why.trim() === '') return { ok: false, message: `unmet checkpoint "${u.id}" needs a why.` };
  return { ok: true, declarations: { met, unmet }, given: met.length + unmet.length > 0 };
}

/** A declaration must answer a question this change raises; anything else is named with what is open. */
export function unknownDeclarations(declarations: Declarations, evaluation: CheckpointEvaluation): string | undefined {
  const firing = new Set(evaluation.results.filter((r) => r.holds).map((r) => r.id));
  const defined = new Set(evaluation.results.map((r) => r.id));
  const problems: string[] = [];
  for (const id of [...declarations.met, ...declarations.unmet.map((u) => u.id)]) {
    if (!defined.has(id)) problems.push(`"${id}" is not a checkpoint that governs this change`);
    else if (!firing.has(id)) problems.push(`"${id}" raises no question on this change`);
  }
  if (problems.length === 0) return undefined;
  const open = [...firing];
  return `${problems.join('; ')}. ${open.length > 0 ? `The questions this change raises: ${open.join(', ')}.` : 'This change raises no checkpoint question.'}`;
}
