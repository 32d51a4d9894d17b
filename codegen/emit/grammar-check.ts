// The published CLI manifest must satisfy the schema `discern help` declares for it; the grammar must also be
// unambiguous (no command path or alias twice, no flag spelled twice in one command).
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar } from '../schemas/cli-grammar.js';
import { createAjv } from '../spec/ajv.js';
import { vocabularyKey } from '../schemas/names.js';

export function checkGrammar(grammar: Grammar, contracts: Contracts): void {
  const ajv = createAjv({ keywords: contracts.vocabularies.filter((v) => v.open).map((v) => vocabularyKey(v.name)) });
  ajv.addSchema(contracts.resultsSchema);
  const validate = ajv.getSchema(`${String(contracts.resultsSchema['$id'])}#/$defs/DiscernHelpCliGrammar`);
  if (!validate) throw new Error('the results schema has no DiscernHelpCliGrammar definition');
  if (!validate(grammar)) {
    throw new Error(
      `the generated CLI grammar does not satisfy DiscernHelpCliGrammar: ${JSON.stringify(validate.errors)}`,
    );
  }
  const names = new Set<string>();
  for (const command of grammar.commands) {
    for (const name of [
      command.path.join(' '),
      ...command.aliases.map((a) => [...command.path.slice(0, -1), a].join(' ')),
    ]) {
      if (names.has(name)) throw new Error(`CLI command "${name}" is declared twice`);
      names.add(name);
    }
    const spellings = new Set<string>();
    for (const flag of command.flags) {
      for (const s of flag.spellings) {
        if (spellings.has(s)) throw new Error(`CLI command "${command.path.join(' ')}" spells ${s} twice`);
        if (s === '-h' || s === '--help' || s === '-V' || s === '--version' || s === '-v')
          throw new Error(`${s} is reserved`);
        spellings.add(s);
      }
    }
  }
  // A former name points at a command that exists, and never hides one: it is answered before the lookup fails.
  for (const r of grammar.renamed) {
    if (names.has(r.from.join(' '))) throw new Error(`renamed command "${r.from.join(' ')}" is still a command`);
    if (!names.has(r.to.join(' ')))
      throw new Error(`renamed command "${r.from.join(' ')}" names "${r.to.join(' ')}", which is not a command`);
  }
}
