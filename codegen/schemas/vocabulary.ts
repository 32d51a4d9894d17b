// Expands `x-discern-vocabulary` marks. Published schemas keep the mark (naming the root key) and give open
// vocabularies `type: string`, closed ones an `enum`; wire schemas for MCP drop the mark; TypeScript sources
// replace the node with a reference to the vocabulary's generated type.
import type { JsonSchema, VocabulariesSpec } from '../spec/types.js';
import { mapSchema } from '../spec/walk.js';
import { vocabularyKey, vocabularyType } from './names.js';

export type VocabularyMode = 'published' | 'wire' | 'ts';

export interface Vocabulary {
  name: string;
  open: boolean;
  description: string;
  members: string[];
}

export function listVocabularies(spec: VocabulariesSpec): Vocabulary[] {
  const out: Vocabulary[] = [
    {
      name: 'error',
      open: true,
      description: 'Stable classified-failure slug.',
      members: Object.keys(spec.error_slugs).sort(),
    },
  ];
  for (const [name, v] of Object.entries(spec.open))
    out.push({ name, open: true, description: v.description, members: [...v.members] });
  for (const [name, v] of Object.entries(spec.closed))
    out.push({ name, open: false, description: v.description, members: [...v.members] });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

export function expandVocabularies(schema: unknown, vocabularies: Vocabulary[], mode: VocabularyMode): unknown {
  const byName = new Map(vocabularies.map((v) => [v.name, v]));
  return mapSchema(schema, (original) => {
    // Wire schemas carry no discern annotations: strict clients may reject unknown keywords.
    const node =
      mode === 'wire'
        ? Object.fromEntries(
            Object.entries(original).filter(([key]) => !key.startsWith('x-discern-') || key === 'x-discern-vocabulary'),
          )
        : original;
    const mark = node['x-discern-vocabulary'];
    if (typeof mark !== 'string') return node;
    const vocab = byName.get(mark);
    if (!vocab) throw new Error(`unknown vocabulary ${mark}`);
    const { 'x-discern-vocabulary': _mark, ...rest } = node;
    if (mode === 'ts') return { ...rest, tsType: vocabularyType(vocab.name) };
    const typed: JsonSchema = vocab.open
      ? { type: 'string', ...rest }
      : { type: 'string', enum: vocab.members, ...rest };
    return mode === 'published' ? { ...typed, 'x-discern-vocabulary': vocabularyKey(vocab.name) } : typed;
  });
}
