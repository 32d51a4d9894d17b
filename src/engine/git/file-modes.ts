// Whether the checkout's filesystem keeps exec bits, probed as `git init` does: flip a fresh file's owner exec bit
// and stat it back. Where it does, the gate's status reads compare modes whatever core.fileMode says
// (`-c core.fileMode=true`): with core.fileMode=false an exec bit flipped in the working tree is invisible to git
// status, and Proof would name a commit whose modes differ from what the jobs ran. Where it does not (or the probe
// cannot be made), the modes cannot be compared and Proof says so (file_modes: unverified).
import { chmodSync, mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex } from '../state/random.js';

// A filesystem does not change under a checkout within one process: a long-lived server probes each once.
const probed = new Map<string, boolean>();

/** true when `stateDir`'s filesystem keeps exec bits; false when it does not or cannot be probed. */
export function execBitsKept(stateDir: string): boolean {
  const known = probed.get(stateDir);
  if (known !== undefined) return known;
  const probe = join(stateDir, `.exec-bit-probe-${process.pid}-${randomHex(4)}`);
  try {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(probe, '', { flag: 'wx', mode: 0o644 });
    const before = statSync(probe).mode;
    chmodSync(probe, (before ^ 0o100) & 0o7777);
    const kept = statSync(probe).mode !== before;
    probed.set(stateDir, kept);
    return kept;
  } catch {
    // Not probed (a read-only state directory): not cached, and the modes are not taken as compared.
    return false;
  } finally {
    removeProbe(probe);
  }
}

function removeProbe(probe: string): void {
  // unlink, not rm: Node's rm loads its recursive remover even for one file, on every done.
  try {
    unlinkSync(probe);
  } catch {
    // Never made (a directory that cannot be written or searched), or already gone.
  }
}

/** The arguments that make a status read compare modes, when the filesystem keeps them (before the subcommand). */
export function modeComparingArgs(stateDir: string | undefined): string[] {
  return stateDir !== undefined && execBitsKept(stateDir) ? ['-c', 'core.fileMode=true'] : [];
}
