// Efforts for acceptance tests: a repository with a small gate, and an effort started, changed, committed and
// (by default) proven through the same invoke() the surfaces use.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { call } from './drive.js';
import { scratchRepo, type ScratchRepo } from './scratch-repo.js';

export const BASE_CONFIG = `[project]
name = "accept"

[jobs]
test = "test ! -f conflict-marker"

[scopes.docs]
paths = ["docs/**"]
neutral = true
`;

/** A repository for acceptance tests, added to `repos` for cleanup. */
export function trackedRepo(repos: ScratchRepo[], extra = ''): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': `${BASE_CONFIG}${extra}`,
    'shared.txt': 'one\n',
    'docs/index.md': '# Docs\n',
  });
  repos.push(r);
  return r;
}

export interface Work {
  id: string;
  path: string;
  git(...args: string[]): string;
  change(file: string, text: string, message?: string): string;
}

/** Starts an effort, commits a change in it and proves it. */
export async function effort(r: ScratchRepo, id: string, file: string, text: string, prove = true): Promise<Work> {
  const started = await call('start', { name: id }, r.root);
  assert.ok(started.ok && started.verb === 'start' && started.data && 'path' in started.data, JSON.stringify(started));
  const path = started.data.path;
  const git = (...args: string[]): string => r.git('-C', path, ...args);
  const change = (f: string, t: string, message = `change ${f}`): string => {
    mkdirSync(dirname(join(path, f)), { recursive: true });
    writeFileSync(join(path, f), t);
    git('add', '-A');
    git('commit', '-q', '-m', message);
    return git('rev-parse', 'HEAD').trim();
  };
  change(file, text);
  if (prove) {
    const done = await call('done', {}, path);
    assert.ok(done.ok, JSON.stringify(done, null, 2));
  }
  return { id, path, git, change };
}
