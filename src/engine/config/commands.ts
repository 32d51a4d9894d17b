// A configured command list as commands to run: one command or several in order; empty and ':' dropped.
import type { DiscernConfigCommandList } from '../../../generated/types.js';

export function commandList(run: DiscernConfigCommandList | undefined): string[] {
  if (run === undefined) return [];
  return (Array.isArray(run) ? run : [run]).map((c) => c.trim()).filter((c) => c.length > 0 && c !== ':');
}
