// discern's built-in agent text — the instructions refresh compiles and the skills it materialises — as the
// templates a call loads when it needs them. They are a chunk of dist/ of their own: a missing one throws
// DamagedInstall (refresh and the skills verbs answer templates_not_found).
import { loadBundled } from '../install/bundled.js';

export interface BuiltinSkill {
  name: string;
  description: string;
  content: string;
}

export interface BuiltinAssets {
  instructions: string;
  skills: readonly BuiltinSkill[];
}

export async function builtinAssets(): Promise<BuiltinAssets> {
  return loadBundled("discern's built-in instruction and skill templates", async () => {
    const assets = await import('../../../generated/agent-assets.js');
    return { instructions: assets.BUILTIN_INSTRUCTIONS, skills: assets.BUILTIN_SKILLS };
  });
}
