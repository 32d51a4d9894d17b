// The spec as codegen reads it: the hand-authored files of spec/, parsed and checked, before any artifact is
// derived from them.

export type JsonSchema = { [key: string]: unknown };

export interface VocabularyEntry {
  description: string;
  members: string[];
}

export interface ErrorFamily {
  description: string;
  next_action: string;
}

export interface ErrorSlugEntry {
  family: string;
  description: string;
  next_action?: string;
}

export interface VocabulariesSpec {
  open: Record<string, VocabularyEntry>;
  closed: Record<string, VocabularyEntry>;
  error_families: Record<string, ErrorFamily>;
  error_slugs: Record<string, ErrorSlugEntry>;
  consent_sources: Record<string, ConsentSourceEntry>;
}

export interface ConsentSourceEntry {
  description: string;
  person: 'asked' | 'standing' | 'asserted';
  queue_authority: string;
  queue_source?: string;
  landing_authority: string;
}

export type PolicyBase = 'observation' | 'effect';
export type ProjectMode = 'none' | 'required' | 'inspect';

export interface CompletionPolicy {
  required_postconditions: string[];
  optional_advisories: string[];
  refusal: 'failure';
  cancellation: 'failure' | 'successful-no-effect' | 'not-applicable';
  partial_effect: 'failure' | 'not-applicable';
  no_op: 'success' | 'not-applicable';
  recovery_owner: 'caller' | 'discern' | 'owner' | 'none';
}

export interface McpAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface VerbResourceSpec {
  name: string;
  kind: 'resource' | 'template';
  uri: string;
  title: string;
  description: string;
  mime_type: 'application/json' | 'text/markdown';
  reads: string;
}

export interface VerbCliSpec {
  path: string[];
  aliases?: string[];
  description: string;
  hidden?: boolean;
  usage?: string;
  positionals?: { name: string; input: string; variadic?: boolean }[];
  flags?: { input: string; spellings: string[]; value_name?: string; cli_only?: boolean; stands_for?: string; predicate?: string; print?: string }[];
  examples?: string[];
  bare?: { print?: string; predicate?: string; run?: string };
  /** Inputs the command sets itself (not flags): `discern standards` always sends action "measure". */
  fixed?: Record<string, string | number | boolean>;
  /** Inputs only MCP callers send; the CLI command has no flag for them. */
  mcp_only?: string[];
}

export interface ExecutionStepSpec {
  kind: string;
  label: string;
  actor: 'project' | 'discern';
  note?: string;
  condition?: string;
}

export interface VerbSpec {
  verb: string;
  summary: string;
  stability: 'stable' | 'evolving';
  project: ProjectMode;
  trunk?: 'required' | 'optional';
  setup_gate?: boolean;
  policy: Partial<CompletionPolicy> & { base: PolicyBase };
  errors: string[];
  projection?: boolean;
  mcp?: {
    name: string;
    title: string;
    description: string;
    when: string;
    annotations: McpAnnotations;
  };
  resources?: VerbResourceSpec[];
  cli: VerbCliSpec;
  hints?: Record<string, string>;
  execution: { when: string; steps: ExecutionStepSpec[] };
}

export interface VerbModel {
  spec: VerbSpec;
  /** spec/verbs/<folder> relative to the repository root. */
  dir: string;
  /** camelCase identifier, e.g. setupVerify. */
  id: string;
  /** PascalCase, e.g. SetupVerify. */
  pascal: string;
  input: JsonSchema;
  data: JsonSchema;
  policy: CompletionPolicy;
}

export interface McpSpec {
  server: { name: string; title: string };
  prompt_order: string[];
  /** The resource template serving every published schema. */
  schemas: { name: string; uri: string; title: string; description: string; untitled?: Record<string, string> };
  agent_assets: { instructions: AgentAssetResource; skills: AgentAssetResource };
  client_profiles: {
    profiles: Record<string, { call_budget_s: number; description: string }>;
    clients: Record<string, string>;
    cli: string;
    unknown: string;
  };
  tool_order: string[];
  work_loop: string[];
  instructions: {
    opening: string;
    discovery: string;
    loop_present: string;
    loop_absent: string;
    resources: string;
    schemas: string;
    prompts: string;
    path: string;
    cli: string;
  };
}

export type PromptArgumentForm = 'text' | 'absolute-path' | 'handle';

export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean; form: PromptArgumentForm }[];
  builder: string;
  attach?: string[];
  example?: string;
  ask: string;
  empty?: string;
}

export interface PromptModel {
  spec: PromptSpec;
  /** spec/prompts/<name>.yaml */
  file: string;
  /** The worked example's text, when the prompt names one. */
  example?: string;
}

export interface CliSpec {
  program: string;
  implicit_flags: { command: string[]; root: string[] };
  renamed_commands?: { from: string[]; to: string[] }[];
  groups: { path: string[]; description: string }[];
  root: { runs: string[]; description: string };
  global_flags: { spellings: string[]; description: string; exclusive_group?: string; value_name?: string; choices?: string[]; default?: string }[];
  commands: { path: string[]; description: string; examples: string[]; usage?: string; positionals?: { name: string; description: string; variadic?: boolean; optional?: boolean }[] }[];
}

export interface ReleaseSpec {
  version: string;
  date: string;
  channel: string;
  summary: string;
  changes: { kind: string; text: string }[];
}

export interface ReleasesSpec {
  format: 1;
  releases: ReleaseSpec[];
}

export interface SpecModel {
  version: string;
  vocabularies: VocabulariesSpec;
  envelope: JsonSchema;
  common: JsonSchema;
  config: JsonSchema;
  proofNote: JsonSchema;
  /** The exception record an emergency integration writes (refs/notes/discern-exceptions). */
  exceptionNote: JsonSchema;
  /** The setup recipe `setup begin --config` reads; it borrows sections of config.schema.json. */
  setupConfig: JsonSchema;
  /** The DISCERN_PROGRESS line a project's job prints. */
  progressLine: JsonSchema;
  /** The schema of spec/releases.yaml, published as schema/discern-releases.schema.json. */
  releasesSchema: JsonSchema;
  /** discern's release history (spec/releases.yaml), checked against releasesSchema. */
  releases: ReleasesSpec;
  conventions: Record<string, unknown>;
  mcp: McpSpec;
  cli: CliSpec;
  verbs: VerbModel[];
  /** MCP prompts in prompt_order. */
  prompts: PromptModel[];
  /** Every spec file read, with its bytes, for provenance hashes. */
  sources: Map<string, string>;
}

export interface AgentAssetResource {
  name: string;
  uri: string;
  title: string;
  description: string;
}
