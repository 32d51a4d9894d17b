// draft_config: the repository's own facts as setup reads them (ecosystems, scripts, Makefile targets, CI
// steps), setup's commented draft, and a worked example, asking for a complete discern.toml checked with
// discern_validate_config before it is saved. The config schema is attached as a resource.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_FILE } from '../../../engine/project/resolve.js';
import { draftConfig } from '../../../engine/setup/draft-toml.js';
import type { RepositoryFacts } from '../../../engine/setup/facts.js';
import { inspectRepository } from '../../../engine/setup/inspect.js';
import { checkoutOf, code, fenced, promptResult, type PromptBuilder } from './context.js';

export const draftConfigPrompt: PromptBuilder = async (ctx) => {
  const checkout = await checkoutOf(ctx);
  const facts = await inspectRepository(checkout.root, { env: ctx.env, signal: ctx.signal });
  const current = await readFile(join(checkout.root, CONFIG_FILE), 'utf8').catch(() => undefined);
  return promptResult(ctx, [
    `Draft discern.toml for the repository at ${code(checkout.root)}.`,
    'discern.toml says which commands prove a change here (`[jobs]`, run stage by stage by discern_done: format fixes, build builds, lint and typecheck check, test tests), which branch work lands on (`[repository] trunk`), and which paths form scopes (`[scopes]`: a documentation-only scope can be `neutral`). Its JSON Schema is attached (discern://schema/config; read that resource if it is not attached): use only the keys it defines.',
    `## What discern found in this repository\n\n${factLines(facts).join('\n')}`,
    current !== undefined
      ? `## The discern.toml already here\n\nThis repository already has ${CONFIG_FILE}; improve it rather than starting over.\n\n${fenced(current, 'toml')}`
      : `## Setup's draft from these facts\n\nEach choice has a comment saying which fact it came from.\n\n${fenced(draftConfig(facts), 'toml')}`,
    ctx.prompt.example !== undefined
      ? `## A worked example (another project)\n\n${fenced(ctx.prompt.example, 'toml')}`
      : undefined,
  ]);
};

function factLines(facts: RepositoryFacts): string[] {
  const lines = [
    `- Name: ${facts.name}`,
    `- Ecosystems: ${facts.ecosystems.length > 0 ? facts.ecosystems.join(', ') : 'none recognised (no package.json, pyproject.toml, Cargo.toml or go.mod)'}`,
  ];
  if (facts.branch) lines.push(`- Current branch: ${facts.branch}`);
  if (facts.node) {
    const scripts = Object.entries(facts.node.scripts).map(([name, command]) => `${name} = ${code(command)}`);
    lines.push(
      `- Node: ${facts.node.package_manager}${facts.node.lockfile ? ` (${facts.node.lockfile})` : ', no lockfile'}; tools: ${facts.node.tools.length > 0 ? facts.node.tools.join(', ') : 'none recognised'}`,
    );
    lines.push(`- package.json scripts: ${scripts.length > 0 ? scripts.join('; ') : 'none'}`);
  }
  if (facts.python)
    lines.push(
      `- Python: ${facts.python.markers.join(', ')}${facts.python.installer ? `; installer ${facts.python.installer}` : ''}; tools: ${facts.python.tools.join(', ') || 'none recognised'}${facts.python.tox_envs.length > 0 ? `; tox environments ${facts.python.tox_envs.join(', ')}` : ''}`,
    );
  if (facts.rust)
    lines.push(`- Rust: ${facts.rust.workspace ? 'a Cargo workspace' : `crate ${facts.rust.package ?? '(unnamed)'}`}`);
  if (facts.go) lines.push(`- Go: module ${facts.go.module}`);
  lines.push(`- Makefile targets: ${facts.make_targets.length > 0 ? facts.make_targets.join(', ') : 'none'}`);
  lines.push(facts.ci_steps.length > 0 ? '- CI steps:' : '- CI steps: none found');
  for (const step of facts.ci_steps.slice(0, 20)) lines.push(`  - ${step.file}: ${code(step.run)}`);
  if (facts.ci_steps.length > 20) lines.push(`  - … and ${facts.ci_steps.length - 20} more`);
  lines.push(
    `- Documentation folders: ${facts.docs_dirs.length > 0 ? facts.docs_dirs.map((d) => `${d}/`).join(', ') : 'none'}`,
  );
  lines.push(
    facts.jobs.length > 0 ? '- Proposed jobs:' : '- Proposed jobs: none (no test, lint or build command was found)',
  );
  for (const job of facts.jobs) lines.push(`  - ${job.name}: ${job.run.map(code).join(', then ')} — ${job.why}`);
  if (facts.ensure.length > 0)
    lines.push(`- Proposed ensure: ${facts.ensure.map((e) => `${code(e.run)} (${e.why})`).join('; ')}`);
  return lines;
}
