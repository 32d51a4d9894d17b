// Reads a repository's own facts for setup and the draft_config prompt: ecosystems, scripts and targets, CI
// steps, documentation folders, the current branch, and the jobs and ensure commands those facts suggest.
import { basename } from 'node:path';
import { git } from '../git/git.js';
import { ciSteps } from './ci-steps.js';
import { docsDirs, goFacts, makeTargets, nodeFacts, pythonFacts, rustFacts } from './ecosystems.js';
import type { Ecosystem, RepositoryFacts } from './facts.js';
import { propose, type InspectedFacts } from './propose.js';
import { listNames } from './read-files.js';
import { readRepoView } from './repo-view.js';

export interface InspectOptions {
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

export async function inspectRepository(root: string, options: InspectOptions): Promise<RepositoryFacts> {
  const view = await readRepoView(root, options);
  const source = { root, view };
  const names = listNames(source, '.');
  const [node, python, rust, go, make, ci, docs, branch] = await Promise.all([
    nodeFacts(source, names),
    pythonFacts(source, names),
    rustFacts(source, names),
    goFacts(source, names),
    makeTargets(source, names),
    ciSteps(source),
    docsDirs(source, names),
    currentBranch(root, options),
  ]);
  const ecosystems: Ecosystem[] = [];
  if (node) ecosystems.push('node');
  if (python) ecosystems.push('python');
  if (rust) ecosystems.push('rust');
  if (go) ecosystems.push('go');
  const inspected: InspectedFacts = {
    root,
    name: node?.name ?? rust?.package ?? python?.name ?? basename(root),
    ecosystems,
    ...(node ? { node: node.facts } : {}),
    ...(python ? { python: python.facts } : {}),
    ...(rust ? { rust } : {}),
    ...(go ? { go } : {}),
    make_targets: make,
    ci_steps: ci,
    docs_dirs: docs,
    ...(branch ? { branch } : {}),
    ...(view.readUntracked.size > 0 ? { untracked: [...view.readUntracked].sort() } : {}),
  };
  return { ...inspected, ...propose(inspected) };
}

async function currentBranch(root: string, options: InspectOptions): Promise<string | undefined> {
  const result = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], {
    cwd: root,
    env: options.env,
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch(() => undefined);
  const name = result?.code === 0 ? result.stdout.trim() : '';
  return name === '' ? undefined : name;
}
