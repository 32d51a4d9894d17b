// One `git cat-file --batch` kept open for questions that depend on earlier answers (verify reads a commit, then
// its note, then a file at the commit the note names): each `ask` writes its names and resolves once every answer
// arrived, so a chain of reads costs one git process instead of one per link. git flushes each object as it
// answers when --buffer is not given. `close` ends stdin; the process exits on its own.
import type { ChildProcessWithoutNullStreams, spawn as Spawn } from 'node:child_process';
import { gitEnvironment } from './git.js';
import type { BatchObject } from './committed-files.js';
import { trackChild } from '../process/children.js';

type Env = Readonly<Record<string, string | undefined>>;

interface Pending {
  count: number;
  objects: (BatchObject | undefined)[];
  resolve: (objects: (BatchObject | undefined)[]) => void;
  reject: (error: Error) => void;
}

let spawner: typeof Spawn | undefined;

export class CatFileSession {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private failed: Error | undefined;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    child.stdin.on('error', () => undefined);
    const fail = (error: Error): void => {
      this.failed ??= error;
      for (const p of this.queue.splice(0)) p.reject(this.failed);
    };
    child.once('error', (error) => fail(error));
    child.once('close', (code) => fail(new Error(`git cat-file --batch exited ${code ?? 'on a signal'}`)));
  }

  static async open(cwd: string, env: Env): Promise<CatFileSession> {
    spawner ??= (await import('node:child_process')).spawn;
    const child = spawner('git', ['cat-file', '--batch'], {
      cwd,
      env: gitEnvironment(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    trackChild(child);
    child.stderr.resume();
    return new CatFileSession(child);
  }

  /** The objects `names` name, in order (undefined where git answers missing or ambiguous). */
  ask(names: readonly string[]): Promise<(BatchObject | undefined)[]> {
    if (this.failed) return Promise.reject(this.failed);
    if (names.some((n) => /[\n\r\0]/.test(n))) return Promise.reject(new Error('a name holds a line break'));
    if (names.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ count: names.length, objects: [], resolve, reject });
      this.child.stdin.write(names.map((n) => `${n}\n`).join(''));
    });
  }

  close(): void {
    this.child.stdin.end();
  }

  /** Takes every complete answer off the buffer: `<oid> <type> <size>` LF bytes LF, or `<name> missing` LF. */
  private drain(): void {
    for (;;) {
      const pending = this.queue[0];
      if (pending === undefined) return;
      const end = this.buffer.indexOf(0x0a);
      if (end < 0) return;
      const header = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(this.buffer.subarray(0, end).toString('utf8'));
      if (header === null) {
        pending.objects.push(undefined);
        this.buffer = this.buffer.subarray(end + 1);
      } else {
        const contentEnd = end + 1 + Number(header[3]);
        if (this.buffer.length < contentEnd + 1) return;
        pending.objects.push({
          oid: header[1] as string,
          type: header[2] as string,
          content: Buffer.from(this.buffer.subarray(end + 1, contentEnd)),
        });
        this.buffer = this.buffer.subarray(contentEnd + 1);
      }
      if (pending.objects.length === pending.count) {
        this.queue.shift();
        pending.resolve(pending.objects);
      }
    }
  }
}
