// A watchdog for the process groups discern's jobs run in. A SIGKILL gives discern no chance to stop them, and
// they would live on under PID 1. So the first job that starts also starts one small watchdog process: it
// holds the read end of a pipe from discern, and discern writes to it the group id of each job as it starts
// (+pgid) and ends (-pgid). When the pipe reaches EOF (discern exited or was killed), the watchdog sends
// SIGTERM and then, 500 ms later, SIGKILL to every group still listed, and exits. A process that left its
// group (setsid, a double fork into a new session) is out of its reach; docs/manual says so.
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

const WATCHDOG = `
const groups = new Set();
let buffered = '';
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let at;
  while ((at = buffered.indexOf('\\n')) >= 0) {
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === '+') groups.add(pgid);
    else groups.delete(pgid);
  }
});
const signal = (name) => { for (const g of groups) { try { process.kill(-g, name); } catch {} } };
process.stdin.on('end', () => {
  if (groups.size === 0) process.exit(0);
  signal('SIGTERM');
  setTimeout(() => { signal('SIGKILL'); process.exit(0); }, 500);
});
`;

let watchdog: { child: ChildProcess; input: Writable } | undefined;
let unavailable = false;

function started(): Writable | undefined {
  if (watchdog !== undefined) return watchdog.input;
  if (unavailable) return undefined;
  try {
    // Its own process group, so a signal to discern's group does not take it down before it is needed.
    // node:child_process loads with the first job, not with every call that could run one.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    const input = child.stdin;
    if (input === null) throw new Error('no pipe to the watchdog');
    // Neither the watchdog nor its pipe may keep discern running.
    child.unref();
    (input as unknown as { unref?: () => void }).unref?.();
    input.on('error', () => undefined);
    child.once('error', () => {
      unavailable = true;
      watchdog = undefined;
    });
    watchdog = { child, input };
    return input;
  } catch {
    // Without a watchdog a job still runs; only the SIGKILL case loses its cleanup.
    unavailable = true;
    return undefined;
  }
}

/** The group `pgid` leads is a job's: the watchdog stops it if discern dies first. */
export function watchGroup(pgid: number): void {
  started()?.write(`+${pgid}\n`);
}

/** The group has ended (or been stopped): nothing for the watchdog to do about it. */
export function unwatchGroup(pgid: number): void {
  watchdog?.input.write(`-${pgid}\n`);
}
