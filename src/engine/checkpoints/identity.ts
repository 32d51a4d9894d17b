// What a checkpoint question is about, as two digests (docs/decisions/0028):
//   - the definition hash: the checkpoint's normalised definition — its selector and filters with scope names
//     resolved to their patterns, and its question text — so an edited trigger or question is a new question,
//     while prose around it (teach, reference) can be polished without reopening anything;
//   - the subject: the matched paths and their contents (blob ids; a deletion as such), so a declaration holds
//     while those files are as they were and reopens when one of them changes. The branch and unrelated commits
//     are not part of it: a new commit elsewhere, or the same files composed over a moved trunk, keep the answer.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../gate/canonical-json.js';
import type { ChangedFile } from './change-facts.js';
import type { CheckpointDefinition } from './definitions.js';

export function definitionHash(def: CheckpointDefinition, questionText: string): string {
  const sorted = (values: readonly string[] | undefined): string[] | undefined =>
    values === undefined ? undefined : [...new Set(values)].sort();
  const normalised = {
    id: def.id,
    mode: def.mode,
    selector: {
      ...(def.selector.scope !== undefined ? { scope: def.selector.scope } : {}),
      patterns: sorted(def.selector.patterns),
    },
    include_generated: def.includeGenerated,
    exclude_paths: sorted(def.exclude?.patterns),
    unless_changed: def.unlessChanged
      .map((u) => ({ entry: u.entry, patterns: sorted(u.patterns) }))
      .sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0)),
    kinds: sorted(def.kinds),
    adds_matching: sorted(def.addsMatching),
    removes_matching: sorted(def.removesMatching),
    new_directory: def.newDirectory,
    binary: def.binary,
    min_changed_files: def.minChangedFiles,
    min_changed_lines: def.minChangedLines,
    deletion_dominant: def.deletionDominant,
    min_commits: def.minCommits,
    // Added only when set, so a definition without them keeps the hash it had before they existed.
    ...(def.similarNewFile ? { similar_new_file: true } : {}),
    ...(def.when !== undefined ? { when: def.when } : {}),
    question: questionText,
  };
  return sha256(canonicalJson(normalised));
}

export function subjectOf(matched: readonly ChangedFile[]): string {
  const entries = matched
    .map((f) => [f.path, f.blob ?? 'deleted'])
    .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0));
  return sha256(canonicalJson(entries));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
