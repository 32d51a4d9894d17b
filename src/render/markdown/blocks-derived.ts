// Blocks for what a template cannot derive itself: the template language compares values but does not filter a
// list, count what matches, or rewrite a string (docs/decisions/0031). Each block does that one thing; the prose
// around it stays in the verb's template, except where a heading depends on whether anything matched.
import type {
  DiscernDoctorCheck,
  DiscernImprovementAction,
  DiscernImprovementCategory,
  DiscernPatternsIdentity,
} from '../../../generated/types.js';
import { shellQuote } from '../../engine/process/shell-quote.js';
import type { Block } from '../template/evaluate.js';
import { code } from './blocks.js';

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

export const DERIVED_BLOCKS = {
  /** `{{> beside data.path 'THIRD-PARTY-LICENSES'}}`: the file of that name in the same folder as the path. */
  beside: ([path, name]) => (typeof path === 'string' ? path.replace(/[^/]*$/, String(name)) : undefined),
  /** `{{> shell-command program args}}`: a command line a POSIX shell reads back as those words. */
  'shell-command': ([program, args]) =>
    typeof program === 'string' ? [program, ...list<string>(args)].map(shellQuote).join(' ') : undefined,
  /** doctor: the checks that did not pass and say how to fix them, failures first. */
  'doctor-fixes': ([checks]) => {
    const all = list<DiscernDoctorCheck>(checks);
    const fixes = [...all.filter((c) => c.status === 'fail'), ...all.filter((c) => c.status === 'warn')].filter(
      (c) => c.fix,
    );
    return fixes.length > 0
      ? `## To fix\n\n${fixes.map((c) => `- **${c.name}**: ${c.fix ?? ''}`).join('\n')}`
      : undefined;
  },
  /** improvement: every rule that does not pass, by category, with its evidence and fix. */
  'rules-not-passing': ([categories]) => {
    const failing = list<DiscernImprovementCategory>(categories).flatMap((c) =>
      c.rules.filter((r) => r.status !== 'pass'),
    );
    return failing.length > 0
      ? `## Rules that do not pass\n\n${failing.map((r) => `- ${code(r.id)} ${r.status}: ${r.evidence.detail}${r.fix ? ` Fix: ${r.fix}` : ''}`).join('\n')}`
      : undefined;
  },
  /** improvement: the ranked improvements that are the owner's choice to make (kind decide). */
  'owner-choices': ([next, recommendations]) => {
    const actions = [
      ...(next && typeof next === 'object' ? [next as DiscernImprovementAction] : []),
      ...list<DiscernImprovementAction>(recommendations),
    ].filter((a) => a.kind === 'decide');
    return actions.length > 0
      ? `The owner's choice:\n\n${actions.map((a) => `- ${a.title} (${code(a.id)})`).join('\n')}`
      : undefined;
  },
  /** patterns: the named agents among the callers with their event counts, in parentheses; nothing when none. */
  'agent-names': ([identities]) => {
    const names = list<DiscernPatternsIdentity>(identities).filter((i) => i.actor === 'agent' && i.name);
    return names.length > 0 ? ` (${names.map((i) => `${i.name ?? ''} ${i.events}`).join(', ')})` : undefined;
  },
} satisfies Record<string, Block>;
