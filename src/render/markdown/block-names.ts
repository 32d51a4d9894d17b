// The shared Markdown blocks a presentation template may call with `{{> name args}}`. Codegen reads this list to
// check templates; blocks-registry.ts must implement exactly these (the compiler holds it to that).
export const BLOCK_NAMES = [
  'failure',
  'steps',
  'diagnostics',
  'standards',
  'plan',
  'config-issues',
  'questions',
  'declarations',
  'drops',
  'toml-value',
  'explanation',
  'refresh-change',
  'failed-checks',
  'total',
  'count-where',
  'remainder',
  'tenths',
  'words',
  'stop-questions-waiting',
  'beside',
  'shell-command',
  'doctor-fixes',
  'rules-not-passing',
  'owner-choices',
  'agent-names',
] as const;

export type BlockName = (typeof BLOCK_NAMES)[number];
