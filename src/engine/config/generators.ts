// The [generated.<name>] tables: the paths each generator owns and the commands that regenerate them.
import type { DiscernConfig } from '../../../generated/types.js';
import { commandList } from './commands.js';

export interface GeneratorDefinition {
  name: string;
  paths: readonly string[];
  commands: string[];
  timeout?: number;
}

export function configuredGenerators(config: DiscernConfig): GeneratorDefinition[] {
  const out: GeneratorDefinition[] = [];
  for (const [name, table] of Object.entries(config.generated ?? {})) {
    if (table === undefined) continue;
    out.push({
      name,
      paths: table.paths,
      commands: commandList(table.run),
      ...(table.timeout !== undefined ? { timeout: table.timeout } : {}),
    });
  }
  return out;
}
