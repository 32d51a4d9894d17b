// The caller's working directory, even when it has been deleted under us: process.cwd() then throws, and a
// crash there would hide the real, classifiable problem (the directory is gone). PWD still names it, so the
// project resolution can say that this path does not exist.
import { isAbsolute } from 'node:path';

export function workingDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  try {
    return process.cwd();
  } catch {
    const pwd = env['PWD'];
    return pwd !== undefined && isAbsolute(pwd) ? pwd : '/';
  }
}
