// doctor's look at the package scripts setup split into jobs ([meta] split_scripts): each should still read as it
// did, or the jobs made from it run something the project no longer does. A changed or missing script is a
// warning with the fix, never a failure: the jobs still run as configured.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig } from '../../generated/types.js';

export interface SplitScriptCheck {
  name: string;
  status: 'ok' | 'warn';
  detail: string;
  fix?: string;
}

export async function splitScriptChecks(config: DiscernConfig, root: string): Promise<SplitScriptCheck[]> {
  const checks: SplitScriptCheck[] = [];
  for (const entry of config.meta?.split_scripts ?? []) {
    const name = `script:${entry.file}#${entry.script}`;
    const now = await scriptText(join(root, entry.file), entry.script);
    if (now === entry.text) {
      checks.push({ name, status: 'ok', detail: `${entry.file}'s \`${entry.script}\` script reads as setup split it` });
      continue;
    }
    checks.push({
      name,
      status: 'warn',
      detail:
        now === undefined
          ? `${entry.file} has no \`${entry.script}\` script any more; setup split \`${entry.text}\` into jobs`
          : `${entry.file}'s \`${entry.script}\` script now reads \`${now}\`; setup split \`${entry.text}\` into jobs`,
      fix: `Bring the jobs made from it in line with the script (or the script with them), then set its text in [meta] split_scripts of discern.toml.`,
    });
  }
  return checks;
}

async function scriptText(path: string, script: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path, 'utf8')) as { scripts?: Record<string, unknown> };
    const text = manifest.scripts?.[script];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
