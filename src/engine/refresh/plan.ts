// The refresh planner: from the repository as it is, every file discern owns a part of, and what that part
// should be — the instruction region in CLAUDE.md, AGENTS.md and GEMINI.md, the `discern` entry of each agent's
// MCP server map, the Claude Code hook, the ADR index region and the materialised skills. For agents not
// configured (and skills no longer wanted) the part should be absent, so what refresh wrote earlier goes.
// Pure apart from reading: it returns the targets whose content would change (an empty list means everything
// is current) with each one's complete new text, and writes nothing. applyRefresh (apply.ts) writes them.
// A part that is the user's, not one discern wrote (ownership.ts), is left as it is and reported in `skipped`;
// each target names the parts of its new text that are discern's, for the ledger.
//
// Uninstall plans with the same machinery, wanting every part absent.
import { GITATTRIBUTES, GITATTRIBUTES_NOTE, GITATTRIBUTES_REGION, linguistLines } from './gitattributes.js';
import { variableValues } from '../config/substitutions.js';
import {
  groupKey,
  isDiscernsEntry,
  isDiscernsGroup,
  entryDigest,
  ownershipKey,
  readOwnership,
  regionDigest,
  regionKey,
  type OwnedPart,
  type Ownership,
} from './ownership.js';
import { handEdited, owning, ownedRegion, region, stripped, type Edit } from './region-edit.js';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { Project } from '../project/resolve.js';
import { MARKDOWN_REGION, TOML_REGION, lineBreakOf, regionText, stripRegion } from '../wiring/regions.js';
import {
  memberAt,
  newJsonFile,
  removeElements,
  removeMember,
  setElement,
  setMember,
  type JsonValue,
} from '../wiring/jsonc.js';
import {
  AGENTS,
  ALL_SKILL_FOLDERS,
  AGENT_IDS,
  EARLIER_HOOK_GROUPS,
  INSTRUCTION_FILES,
  type InstructionFile,
  codexStartupIn,
  codexStartupTimeout,
  configuredAgents,
  hookWiringFor,
  isDiscernHookGroup,
  mcpWiringFor,
  skillFolders,
  type AgentId,
  type McpWiring,
  type SkillFolderChoice,
} from './agents.js';
import { compileInstructions } from './instructions.js';
import { knownLaunches, projectLaunch, type Launch } from './launch.js';
import { launchProblem, probeLaunch, type LaunchProbe } from './launch-probe.js';
import { decisionRecords, decisionsDir, indexBody } from './adr-index.js';
import { SKILL_FILE, isMaterialised, materialisedText, skillCatalogue, type Skill } from './skills.js';
import { digestOf, readProjectFile } from './files.js';

export type RefreshKind = 'instructions' | 'mcp' | 'hooks' | 'adr-index' | 'skill' | 'gitattributes';
export type RefreshAction = 'create' | 'update' | 'delete';

/** One file whose content would change, with everything needed to write it. */
export interface RefreshTarget {
  /** Where the file really is, project-relative. */
  path: string;
  /** Other names it is reached by (a link such as CLAUDE.md → AGENTS.md). */
  also?: string[];
  kind: RefreshKind;
  action: RefreshAction;
  /** The agents it serves (empty for the ADR index and for removals). */
  agents: AgentId[];
  /** discern's part is being taken out (its agent is no longer configured, the skill is gone, uninstall). */
  removes: boolean;
  /** The file's complete new text; absent when it is deleted. */
  content?: string;
  /** sha256 of the text the plan read (null: no file): apply refuses to write over a file changed since. */
  before: string | null;
  mode?: number;
  label: string;
  /** The parts of the new text that are discern's, for the ownership ledger once it is written. */
  owns: OwnedPart[];
}

export type ProblemSlug = 'invalid_settings_file' | 'invalid_config' | 'read_failed' | 'write_denied';

/** Why a part cannot be planned: refresh refuses with the first; uninstall reports each as an advisory. */
export interface RefreshProblem {
  path: string;
  slug: ProblemSlug;
  /** Where in the file, for the next action (a line, a key). */
  where: string;
  message: string;
}

export interface PlannedSkill extends Skill {
  /** Where refresh materialises it, and whether that copy is current. */
  copies: { path: string; agents: AgentId[]; state: 'current' | 'stale' | 'missing' | 'blocked' }[];
}

export interface RefreshPlan {
  /** The project root with links resolved; target paths are relative to it. */
  root: string;
  agents: AgentId[];
  targets: RefreshTarget[];
  /** Parts that are already as they should be. */
  current: { path: string; kind: RefreshKind }[];
  /** The parts found as refresh would write them, for the ownership ledger (refresh records them too). */
  held: OwnedPart[];
  errors: RefreshProblem[];
  /** Files left alone, and why (a skill someone else wrote where refresh would put one). */
  skipped: { path: string; reason: string }[];
  hints: string[];
  skillFolders: SkillFolderChoice[];
  skills: PlannedSkill[];
  skillsDir: string;
  /** Authored skills that cannot be read (also in errors). */
  skillProblems: { path: string; message: string }[];
  /** Folders under [skills] dir without a SKILL.md. */
  ignoredSkillFolders: string[];
  /** The instruction sources compiled, in order. */
  sources: string[];
}

export interface PlanOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** The wired command's start-up, when the caller probed it (probeWiredCommand); otherwise nothing is started. */
  probe?: LaunchProbe;
}

interface Intent {
  path: string;
  kind: RefreshKind;
  agents: AgentId[];
  present: boolean;
  label: string;
  /** The new text of the file, which is at `at` (the path with links resolved). */
  edit: (text: string | null, at: string) => Edit;
}

// What each region's begin line says after its name and body digest (see regionText).
const INSTRUCTIONS_NOTE =
  'written by discern refresh from its built-in text and [instructions] sources; edit those, not this region';
const ADR_NOTE = 'written by discern refresh from the decision records in this folder';
const CODEX_NOTE = 'written by discern refresh, which leaves this region as it is once it is edited by hand';

/** What refresh would change, computed from the repository; writes nothing. */
export async function planRefresh(project: Project, options: PlanOptions = {}): Promise<RefreshPlan> {
  const root = await realpath(project.root);
  const env = options.env ?? process.env;
  const agents = configuredAgents(project.config.project?.agents);
  const errors: RefreshProblem[] = [];
  const hints: string[] = [];
  const intents: Intent[] = [];

  const variables = variableValues(project.config);
  const instructions = await compileInstructions(root, project.config.instructions?.sources, env, {
    ...(project.config.project?.todo !== undefined
      ? { todo: variables['project.todo'] ?? project.config.project.todo }
      : {}),
    ...(variables['project.gotchas_doc'] !== undefined ? { gotchasDoc: variables['project.gotchas_doc'] } : {}),
  });
  errors.push(...instructions.problems);
  const owned = await readOwnership(project.commonDir);
  for (const file of INSTRUCTION_FILES) {
    const serving = agents.filter((id) => AGENTS[id].instructions === file);
    intents.push(instructionIntent(file, serving, instructionBody(file, agents, instructions.body), owned));
  }
  // How the files start discern: [project] command, else the project's own discern-cli, else the PATH's (launch.ts).
  const chosen = await projectLaunch(root, project.config.project?.command);
  if (chosen.hint !== undefined) hints.push(chosen.hint);
  // The refresh verb starts the wired command once, as an agent would (probeWiredCommand): its time sets
  // Codex's start-up limit, and a command that does not start here is said now rather than found by the agent.
  // Other planners (the gate's currency check, setup) start nothing; unmeasured, the limit is what the file holds.
  const probe = options.probe;
  if (probe !== undefined && !probe.ok) hints.push(launchProblem(probe, chosen.launch));
  const measured = probe?.ok === true ? probe.ms : undefined;
  for (const id of AGENT_IDS) intents.push(mcpIntent(id, agents.includes(id), owned, chosen.launch, measured));
  for (const id of AGENT_IDS) {
    const hook = hookIntent(id, agents.includes(id), owned, chosen.launch);
    if (hook) intents.push(hook);
  }
  for (const id of agents) hints.push(AGENTS[id].trust(chosen.launch));

  const decisions = decisionsDir(project.config.map?.dir);
  const records = await decisionRecords(root, decisions);
  if (records) intents.push(adrIntent(`${decisions}/README.md`, indexBody(records), owned));

  const linguist = linguistLines(project.config);
  intents.push(gitattributesIntent(linguist.body, owned));
  for (const { path, why } of linguist.left)
    hints.push(`[generated] path "${path}" is not in .gitattributes: ${why}. Mark it linguist-generated by hand.`);

  const catalogue = await skillCatalogue(root, project.config.skills);
  for (const p of catalogue.problems)
    errors.push({ path: p.path, slug: 'invalid_settings_file', where: p.where, message: p.message });
  const folders = skillFolders(agents);
  const wanted = catalogue.skills.filter((s) => !s.excluded);
  const desired = new Set<string>();
  for (const choice of folders) {
    for (const skill of wanted) {
      const path = `${choice.folder}/${skill.name}/${SKILL_FILE}`;
      desired.add(path);
      intents.push(skillIntent(path, choice.agents, materialisedText(skill)));
    }
  }
  for (const path of await materialisedSkills(root)) if (!desired.has(path)) intents.push(skillPrune(path));

  const plan = await resolveIntents(root, intents, false);
  const states = new Map<string, PlannedSkill['copies'][number]['state']>();
  for (const path of plan.currentPaths) states.set(path, 'current');
  for (const t of plan.targets) if (t.kind === 'skill') states.set(t.path, t.action === 'create' ? 'missing' : 'stale');
  for (const s of plan.skipped) states.set(s.path, 'blocked');
  const skills: PlannedSkill[] = catalogue.skills.map((skill) => ({
    ...skill,
    copies: skill.excluded
      ? []
      : folders.map((f) => {
          const path = `${f.folder}/${skill.name}/${SKILL_FILE}`;
          return { path, agents: f.agents, state: states.get(path) ?? 'missing' };
        }),
  }));
  return {
    root,
    agents,
    targets: plan.targets,
    current: plan.current,
    held: plan.held,
    errors: [...errors, ...plan.errors],
    skipped: plan.skipped,
    hints,
    skillFolders: folders,
    skills,
    skillsDir: catalogue.dir,
    skillProblems: catalogue.problems.map((p) => ({ path: p.path, message: p.message })),
    ignoredSkillFolders: catalogue.ignored,
    sources: instructions.sources,
  };
}

/**
 * Starts the command the agents' files would run here, as an agent would, and times it (launch-probe.ts). Only
 * discern's own launches are started, which runs discern itself; a `[project] command` is the project's, and
 * discern never runs a command the project names outside its jobs: it is not started (`probe` undefined), and
 * doctor looks its program up instead.
 */
export async function probeWiredCommand(
  project: Project,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ launch: Launch; probe?: LaunchProbe }> {
  const root = await realpath(project.root);
  const { launch } = await projectLaunch(root, project.config.project?.command);
  if (launch.source === 'configured') return { launch };
  return { launch, probe: await probeLaunch(root, launch, env) };
}

/** What uninstall would change: every part discern owns, wanted absent, whatever the configuration says now. */
export async function planUninstall(project: Project): Promise<RefreshPlan> {
  const root = await realpath(project.root);
  const intents: Intent[] = [];
  const owned = await readOwnership(project.commonDir);
  // The project's own [project] command counts as discern's too; the other launches always do.
  const { launch } = await projectLaunch(root, project.config.project?.command);
  for (const file of INSTRUCTION_FILES) intents.push(instructionIntent(file, [], '', owned));
  for (const id of AGENT_IDS) intents.push(mcpIntent(id, false, owned, launch));
  for (const id of AGENT_IDS) {
    const hook = hookIntent(id, false, owned, launch);
    if (hook) intents.push(hook);
  }
  const decisions = decisionsDir(project.config.map?.dir);
  intents.push({
    ...adrIntent(`${decisions}/README.md`, '', owned),
    present: false,
    label: `remove discern's decision index from ${decisions}/README.md`,
    edit: (text, at) => stripped(text, at, 'adr-index', MARKDOWN_REGION, owned),
  });
  intents.push(gitattributesIntent('', owned));
  for (const path of await materialisedSkills(root)) intents.push(skillPrune(path));
  const plan = await resolveIntents(root, intents, true);
  return {
    root,
    agents: [],
    targets: plan.targets,
    current: [],
    held: [],
    errors: plan.errors,
    skipped: plan.skipped,
    hints: [],
    skillFolders: [],
    skills: [],
    skillsDir: '',
    skillProblems: [],
    ignoredSkillFolders: [],
    sources: [],
  };
}

// ---- intents --------------------------------------------------------------------------------------------

/**
 * The body of a file's region. VS Code reads CLAUDE.md and AGENTS.md both, so when an AGENTS.md reader is
 * configured beside Claude Code, CLAUDE.md imports AGENTS.md (Claude Code's `@path` import) instead of holding
 * a second copy: every reader gets the instructions once.
 */
function instructionBody(file: InstructionFile, agents: readonly AgentId[], body: string): string {
  if (file !== 'CLAUDE.md' || !agents.some((id) => AGENTS[id].instructions === 'AGENTS.md')) return body;
  return "This project's instructions for coding agents, discern's among them, are in AGENTS.md, which every agent here reads; Claude Code reads it through this import:\n\n@AGENTS.md\n";
}

function instructionIntent(file: string, serving: AgentId[], body: string, owned: Ownership): Intent {
  const names = serving.map((id) => AGENTS[id].name).join(', ');
  if (serving.length === 0)
    return {
      path: file,
      kind: 'instructions',
      agents: [],
      present: false,
      label: `remove discern's instructions from ${file}`,
      edit: (text, at) => stripped(text, at, 'instructions', MARKDOWN_REGION, owned),
    };
  return {
    path: file,
    kind: 'instructions',
    agents: serving,
    present: true,
    label: `instructions in ${file} (${names})`,
    edit: (text, at) =>
      ownedRegion(
        text,
        at,
        'instructions',
        MARKDOWN_REGION,
        regionText(MARKDOWN_REGION, 'instructions', INSTRUCTIONS_NOTE, body, lineBreakOf(text)),
        owned,
      ),
  };
}

function mcpIntent(id: AgentId, present: boolean, owned: Ownership, launch: Launch, measuredMs?: number): Intent {
  const agent = AGENTS[id];
  const wiring = mcpWiringFor(id, launch);
  const base = { path: wiring.path, kind: 'mcp' as const, agents: present ? [id] : [], present };
  if (wiring.format === 'toml-region') {
    if (!present)
      return {
        ...base,
        label: `remove discern's MCP server from ${wiring.path}`,
        edit: (text, at) => stripped(text, at, 'mcp', TOML_REGION, owned),
      };
    return {
      ...base,
      label: `MCP server in ${wiring.path} (${agent.name})`,
      edit: (text, at) => {
        const startup = codexStartupTimeout(measuredMs, codexStartupIn(text));
        const body = (mcpWiringFor(id, launch, startup) as Extract<McpWiring, { format: 'toml-region' }>).body;
        const full = regionText(TOML_REGION, 'mcp', CODEX_NOTE, body, lineBreakOf(text));
        const part = { key: regionKey(at, 'mcp'), digest: regionDigest(full) };
        return handEdited(text, at, 'mcp', TOML_REGION, full, owned) ?? owning(codexConfig(text, full), part);
      },
    };
  }
  const path = [wiring.serversKey, 'discern'];
  const options = { comments: wiring.comments };
  const part = (at: string): OwnedPart => ({ key: ownershipKey(at, path), digest: entryDigest(wiring.entry) });
  // A `discern` entry discern did not write (another command, arguments, environment) is the user's: kept.
  const theirs = (text: string, at: string): string | undefined => {
    const there = memberAt(text, path, options);
    // An entry with any known launch is discern's: a project that adds or drops discern-cli switches it.
    const forms = knownLaunches(launch).map((l) => {
      const other = mcpWiringFor(id, l);
      return other.format === 'json' ? other.entry : wiring.entry;
    });
    if (there === undefined || isDiscernsEntry(there, forms, ownershipKey(at, path), owned)) return undefined;
    return `${at} has a \`${path.join('.')}\` entry of its own (${JSON.stringify(there).slice(0, 120)}), not one discern wrote: it is left as it is; to hand it back to discern, delete that entry and run \`discern refresh\``;
  };
  if (!present) {
    return {
      ...base,
      label: `remove discern's MCP server from ${wiring.path}`,
      edit: (text, at) => {
        if (text === null) return { ok: true, text };
        const kept = theirs(text, at);
        if (kept !== undefined) return { ok: true, text, skipped: kept };
        const removed = removeMember(text, path, options);
        if (!removed.ok) return { ok: false, where: whereIn(removed.reason), reason: removed.reason };
        // Only a file left holding nothing at all goes; one with the owner's comments stays, emptied.
        return { ok: true, text: removed.empty && removed.text.replace(/\s/g, '') === '{}' ? null : removed.text };
      },
    };
  }
  return {
    ...base,
    label: `MCP server in ${wiring.path} (${agent.name})`,
    edit: (text, at) => {
      if (text === null || text.trim() === '')
        return { ok: true, text: newJsonFile({ [wiring.serversKey]: { discern: wiring.entry } }), owns: [part(at)] };
      const kept = theirs(text, at);
      if (kept !== undefined) return { ok: true, text, skipped: kept };
      const set = setMember(text, path, wiring.entry, options);
      return set.ok
        ? { ok: true, text: set.text, owns: [part(at)] }
        : { ok: false, where: whereIn(set.reason), reason: set.reason };
    },
  };
}

function hookIntent(id: AgentId, present: boolean, owned: Ownership, launch: Launch): Intent | undefined {
  const agent = AGENTS[id];
  const hooks = hookWiringFor(id, launch);
  if (!hooks) return undefined;
  const launches = knownLaunches(launch);
  const forms = [...launches.flatMap((l) => hookWiringFor(id, l)?.element ?? []), ...EARLIER_HOOK_GROUPS];
  const runsDiscern = (group: JsonValue): boolean => isDiscernHookGroup(group, launches);
  const options = { comments: hooks.comments };
  const base = { path: hooks.path, kind: 'hooks' as const, agents: present ? [id] : [], present };
  // A group that runs discern's session context but is not one discern wrote (another matcher, command, timeout) is the
  // user's: kept, and refresh adds none beside it.
  const ours = (at: string) => (group: JsonValue) =>
    runsDiscern(group) && isDiscernsGroup(group, forms, groupKey(at, hooks.listPath), owned);
  const theirs = (text: string, at: string): string | undefined => {
    const list = memberAt(text, hooks.listPath, options);
    const own = Array.isArray(list) ? list.find((g) => runsDiscern(g) && !ours(at)(g)) : undefined;
    if (own === undefined) return undefined;
    return `${at} has a \`${hooks.listPath.join('.')}\` group of its own that runs \`discern status\` (${JSON.stringify(own).slice(0, 120)}), not one discern wrote: it is left as it is; to hand it back to discern, delete that group and run \`discern refresh\``;
  };
  if (!present) {
    return {
      ...base,
      label: `remove discern's hook from ${hooks.path}`,
      edit: (text, at) => {
        if (text === null) return { ok: true, text };
        const removed = removeElements(text, hooks.listPath, ours(at), options);
        if (!removed.ok) return { ok: false, where: whereIn(removed.reason), reason: removed.reason };
        const kept = theirs(text, at);
        return {
          ok: true,
          text: removed.empty ? null : removed.text,
          ...(kept === undefined ? {} : { skipped: kept }),
        };
      },
    };
  }
  return {
    ...base,
    label: `${hooks.listPath[hooks.listPath.length - 1] ?? ''} hook in ${hooks.path} (${agent.name})`,
    edit: (text, at) => {
      const part = { key: groupKey(at, hooks.listPath), digest: entryDigest(hooks.element) };
      if (text === null || text.trim() === '')
        return { ok: true, text: newJsonFile(nestValue(hooks.listPath, [hooks.element])), owns: [part] };
      const kept = theirs(text, at);
      if (kept !== undefined) return { ok: true, text, skipped: kept };
      const set = setElement(text, hooks.listPath, runsDiscern, hooks.element, options);
      return set.ok
        ? { ok: true, text: set.text, owns: [part] }
        : { ok: false, where: whereIn(set.reason), reason: set.reason };
    },
  };
}

function adrIntent(path: string, body: string, owned: Ownership): Intent {
  return {
    path,
    kind: 'adr-index',
    agents: [],
    present: true,
    label: `decision index in ${path}`,
    edit: (text, at) =>
      ownedRegion(
        text,
        at,
        'adr-index',
        MARKDOWN_REGION,
        regionText(MARKDOWN_REGION, 'adr-index', ADR_NOTE, body, lineBreakOf(text)),
        owned,
      ),
  };
}

/** discern's lines in .gitattributes: set when a [generated] table asks for them, else taken out. */
function gitattributesIntent(body: string, owned: Ownership): Intent {
  const present = body !== '';
  return {
    path: GITATTRIBUTES,
    kind: 'gitattributes',
    agents: [],
    present,
    label: present ? `linguist-generated lines in ${GITATTRIBUTES}` : `remove discern's lines from ${GITATTRIBUTES}`,
    edit: (text, at) =>
      present
        ? ownedRegion(
            text,
            at,
            GITATTRIBUTES_REGION,
            TOML_REGION,
            regionText(TOML_REGION, GITATTRIBUTES_REGION, GITATTRIBUTES_NOTE, body, lineBreakOf(text)),
            owned,
          )
        : stripped(text, at, GITATTRIBUTES_REGION, TOML_REGION, owned),
  };
}

function skillIntent(path: string, agents: AgentId[], content: string): Intent {
  return {
    path,
    kind: 'skill',
    agents,
    present: true,
    label: `skill ${path}`,
    edit: (text) => {
      if (text !== null && !isMaterialised(text))
        return {
          ok: true,
          text,
          skipped: `${path} exists and discern did not write it; it is left alone (rename the skill, or move that file)`,
        };
      return {
        ok: true,
        text: text !== null && lineBreakOf(text) === '\r\n' ? content.replace(/\r?\n/g, '\r\n') : content,
      };
    },
  };
}

function skillPrune(path: string): Intent {
  return {
    path,
    kind: 'skill',
    agents: [],
    present: false,
    label: `prune skill ${path}`,
    edit: (text) => ({ ok: true, text: text !== null && isMaterialised(text) ? null : text }),
  };
}

/** Where in a settings file an edit failed, for the next action: the line and column, else the key. */
function whereIn(reason: string): string {
  const at = /at line (\d+), column (\d+)/.exec(reason);
  if (at) return `line ${at[1] ?? ''}, column ${at[2] ?? ''}`;
  const key = /^(`[^`]+`|the top level)/.exec(reason);
  return key?.[1] ?? 'the top level';
}

function nestValue(path: readonly string[], value: JsonValue): JsonValue {
  let out = value;
  for (let k = path.length - 1; k >= 0; k--) out = { [path[k] ?? '']: out };
  return out;
}

/** Codex's config.toml: discern's region (`full`) holds its server table, unless the file declares one itself. */
function codexConfig(text: string | null, full: string): Edit {
  if (text !== null) {
    const outside = stripRegion(text, TOML_REGION);
    if (!outside.ok)
      return { ok: false, where: `line ${outside.line}`, reason: `${outside.reason} (line ${outside.line})` };
    let parsed: Record<string, unknown>;
    try {
      parsed = parseToml(outside.text) as Record<string, unknown>;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const { line, column } = error as { line?: unknown; column?: unknown };
      const where =
        typeof line === 'number'
          ? `line ${line}${typeof column === 'number' ? `, column ${column}` : ''}`
          : 'the top level';
      return {
        ok: false,
        where,
        reason: `not valid TOML at ${where}: ${(message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '')}`,
      };
    }
    const servers = parsed['mcp_servers'];
    if (typeof servers === 'object' && servers !== null && 'discern' in servers) {
      return {
        ok: true,
        text,
        skipped: '.codex/config.toml declares [mcp_servers.discern] itself; it is left as written',
      };
    }
  }
  const edit = region(text, TOML_REGION, full);
  if (!edit.ok || edit.text === null) return edit;
  try {
    parseToml(edit.text);
  } catch (error) {
    return {
      ok: false,
      where: 'the top level',
      reason: `would not be valid TOML with discern's table added: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`,
    };
  }
  return edit;
}

/** Every SKILL.md that refresh wrote (it carries the marker), in any folder an agent reads skills from. */
async function materialisedSkills(root: string): Promise<string[]> {
  // Every folder and skill file is looked at at once (reads only); the answer keeps folder, then name, order.
  const listed = await Promise.all(
    ALL_SKILL_FOLDERS.map(async (folder) =>
      (await readdir(join(root, folder)).catch(() => [] as string[]))
        .sort()
        .map((name) => `${folder}/${name}/${SKILL_FILE}`),
    ),
  );
  const materialised = await Promise.all(
    listed.flat().map(async (path) => {
      const info = await lstat(join(root, path)).catch(() => undefined);
      if (!info?.isFile()) return false;
      const read = await readProjectFile(root, path);
      return read.ok && read.file.text !== null && isMaterialised(read.file.text);
    }),
  );
  return listed.flat().filter((_, index) => materialised[index] === true);
}

// ---- resolution -----------------------------------------------------------------------------------------

interface Resolved {
  targets: RefreshTarget[];
  current: { path: string; kind: RefreshKind }[];
  currentPaths: string[];
  held: OwnedPart[];
  errors: RefreshProblem[];
  skipped: { path: string; reason: string }[];
}

/**
 * Reads each intent's file, merges names of one file, and computes each new text. A part that should be absent
 * but cannot be read or edited is a problem only when `everyAbsent` (uninstall); refresh leaves it, saying so.
 */
async function resolveIntents(root: string, intents: readonly Intent[], everyAbsent: boolean): Promise<Resolved> {
  const out: Resolved = { targets: [], current: [], currentPaths: [], held: [], errors: [], skipped: [] };
  const problem = (intent: Intent, p: RefreshProblem): void => {
    if (intent.present || everyAbsent) out.errors.push(p);
    else out.skipped.push({ path: p.path, reason: `${p.message} discern's part of it, if any, was not removed` });
  };
  const byReal = new Map<string, { intent: Intent; names: string[]; text: string | null; mode: number | undefined }>();
  const order: string[] = [];
  // The files are read at once (reads only; a dozen small files, each a few file-system round trips), then taken
  // in the intents' order, so the outcome is the same as one after another.
  const reads = await Promise.all(intents.map((intent) => readProjectFile(root, intent.path)));
  for (const [index, intent] of intents.entries()) {
    const read = reads[index] as Awaited<ReturnType<typeof readProjectFile>>;
    if (!read.ok) {
      problem(intent, {
        path: intent.path,
        slug: /outside the project/.test(read.reason) ? 'write_denied' : 'read_failed',
        where: intent.path,
        message: `${intent.path} ${read.reason}.`,
      });
      continue;
    }
    const { real, text, mode } = read.file;
    const seen = byReal.get(real);
    if (!seen) {
      byReal.set(real, { intent, names: [intent.path], text, mode });
      order.push(real);
      continue;
    }
    if (seen.intent.kind !== 'instructions' || intent.kind !== 'instructions') {
      problem(intent, {
        path: intent.path,
        slug: 'read_failed',
        where: intent.path,
        message: `${intent.path} and ${seen.names[0] ?? ''} are the same file; discern writes them separately.`,
      });
      continue;
    }
    // Two instruction files that are one (CLAUDE.md a link to AGENTS.md): the region is the same text, wanted
    // when either is wanted.
    seen.names.push(intent.path);
    const merged = seen.intent.present ? seen.intent : intent;
    seen.intent = {
      ...merged,
      agents: [...new Set([...seen.intent.agents, ...intent.agents])],
      label: `${merged.label}, also reached as ${seen.names.filter((n) => n !== real).join(', ')}`,
    };
  }
  for (const real of order) {
    const entry = byReal.get(real);
    if (!entry) continue;
    const { intent, names, text, mode } = entry;
    const edit = intent.edit(text, real);
    if (!edit.ok) {
      problem(intent, {
        path: real,
        slug: 'invalid_settings_file',
        where: edit.where,
        message: `${real}: ${edit.reason}.`,
      });
      continue;
    }
    if (edit.skipped) out.skipped.push({ path: real, reason: edit.skipped });
    if (edit.text === text) {
      if (intent.present && text !== null && !edit.skipped) {
        out.current.push({ path: real, kind: intent.kind });
        out.currentPaths.push(real);
        out.held.push(...(edit.owns ?? []));
      }
      continue;
    }
    const also = names.filter((n) => n !== real);
    out.targets.push({
      path: real,
      ...(also.length > 0 ? { also } : {}),
      kind: intent.kind,
      action: edit.text === null ? 'delete' : text === null ? 'create' : 'update',
      agents: intent.agents,
      removes: !intent.present,
      ...(edit.text === null ? {} : { content: edit.text }),
      before: digestOf(text),
      ...(mode === undefined ? {} : { mode }),
      label: intent.label,
      owns: edit.owns ?? [],
    });
  }
  return out;
}
