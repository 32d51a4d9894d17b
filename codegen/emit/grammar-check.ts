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
  // Every path that only begins commands is a group with a description, and every group begins some command.
  const groups = new Set(grammar.groups.map((g) => g.path.join(' ')));
  for (const command of grammar.commands)
    for (let n = 1; n < command.path.length; n++) {
      const prefix = command.path.slice(0, n).join(' ');
      if (!names.has(prefix) && !groups.has(prefix))
        throw new Error(`"${prefix}" begins commands but is no command: give it a groups entry in spec/cli.yaml`);
    }
  for (const g of grammar.groups) {
    if (names.has(g.path.join(' '))) throw new Error(`group "${g.path.join(' ')}" is also a command`);
    if (g.commands.length === 0) throw new Error(`group "${g.path.join(' ')}" begins no command`);
  }
  if (!names.has(grammar.root.runs.join(' ')))
    throw new Error(`root runs "${grammar.root.runs.join(' ')}", which is not a command`);
  // A former name points at a command that exists, and never hides one: it is answered before the lookup fails.
  for (const r of grammar.renamed) {
    if (names.has(r.from.join(' '))) throw new Error(`renamed command "${r.from.join(' ')}" is still a command`);
    if (!names.has(r.to.join(' ')))
      throw new Error(`renamed command "${r.from.join(' ')}" names "${r.to.join(' ')}", which is not a command`);
  }
}
