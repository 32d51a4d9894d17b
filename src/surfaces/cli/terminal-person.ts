// The person at the terminal the CLI runs in: present only when stdin and stderr are both a terminal, so a
// command run with its input from a pipe or a file (`< /dev/null`) has no one to ask. This guards against an
// accident, not against a process that drives a pseudo-terminal (the trust page in the manual says so).
import { fstatSync } from 'node:fs';
import type { PersonAnswer, PersonChannel, PersonQuestion } from '../../verbs/context.js';

// isatty on the descriptors, not process.stdin.isTTY: that getter builds stdin's stream, a cost every CLI call
// would pay to learn there is no one to ask. A terminal is a character device: node:tty (which brings node:net)
// loads only when both descriptors are one, so a pipe or a file answers without it.
export function terminalPerson(): PersonChannel | undefined {
  if (!characterDevice(0) || !characterDevice(2)) return undefined;
  const { isatty } = process.getBuiltinModule('node:tty');
  if (!isatty(0) || !isatty(2)) return undefined;
  return { via: 'terminal', ask };
}

/** Shows the facts and asks for a typed "yes"; anything else declines, end of input cancels. */
// node:readline loads when a question is asked, not on every CLI call.
async function ask(question: PersonQuestion): Promise<PersonAnswer> {
  const { createInterface } = await import('node:readline');
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let answered = false;
    rl.on('close', () => {
      if (!answered) resolve('cancelled');
    });
    process.stderr.write(`\n${question.message}\n\n`);
    rl.question(`${question.title}? Type yes to approve: `, (line) => {
      answered = true;
      rl.close();
      resolve(line.trim().toLowerCase() === 'yes' ? 'approved' : 'declined');
    });
  });
}

function characterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
