// A checkpoint's trigger and obligation as sentences, for the checkpoints report: what sets it off, and what
// has to happen once it has.
import type { CheckpointDefinition } from './definitions.js';

export function triggerOf(def: CheckpointDefinition): string {
  const parts = [
    `a committed change to ${def.selector.scope !== undefined ? `scope ${def.selector.scope} (${def.selector.patterns.join(', ')})` : def.selector.patterns.join(', ')}`,
  ];
  if (def.exclude) parts.push(`leaving out ${def.exclude.patterns.join(', ')}`);
  if (!def.includeGenerated) parts.push('leaving out [generated] output');
  if (def.kinds) parts.push(`files ${def.kinds.join(' or ')}`);
  if (def.addsMatching)
    parts.push(`adding a line that contains ${def.addsMatching.map((n) => JSON.stringify(n)).join(' or ')}`);
  if (def.removesMatching)
    parts.push(`removing a line that contains ${def.removesMatching.map((n) => JSON.stringify(n)).join(' or ')}`);
  if (def.newDirectory) parts.push('adding a file in a new directory');
  if (def.binary) parts.push('binary files');
  if (def.similarNewFile) parts.push('adding a file similar to one the merge-base has');
  if (def.minChangedFiles !== undefined) parts.push(`at least ${def.minChangedFiles} such files`);
  if (def.minChangedLines !== undefined) parts.push(`at least ${def.minChangedLines} changed lines in them`);
  if (def.deletionDominant) parts.push('more lines removed than added');
  if (def.minCommits !== undefined) parts.push(`at least ${def.minCommits} commits on the branch`);
  const unless =
    def.unlessChanged.length > 0
      ? `; not when the change also touches ${def.unlessChanged.map((u) => (u.scope !== undefined ? `scope ${u.scope}` : u.entry)).join(' or ')}`
      : '';
  const when = def.when !== undefined ? `; then only when \`${def.when}\` exits 0` : '';
  return `${parts.join(', ')}${unless}${when}.`;
}

export function obligationOf(def: CheckpointDefinition): string {
  return def.mode === 'stop'
    ? "When it fires, done refuses (awaiting_declaration) until the question is declared met, or unmet with why; an unmet declaration lands only with the owner's variance at accept."
    : 'When it fires, done and accept report the question; no declaration is required.';
}

export function whenPending(def: CheckpointDefinition): string {
  return def.mode === 'stop'
    ? 'done refuses awaiting_declaration until it is declared met or unmet'
    : 'done reports it; nothing waits on it';
}
