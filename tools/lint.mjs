// `npm run lint`: Prettier's check and ESLint side by side (each reads the tree only; together they take about
// as long as ESLint alone), each one's output printed whole when it ends; fails when either finds anything.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { URL } from 'node:url';

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const [prettier, eslint] = await Promise.all([
  run(bin('prettier'), ['--check', '**/*.{ts,cts,mts,js,cjs,mjs}']),
  run(bin('eslint'), ['--max-warnings', '0', '.']),
]);
process.stdout.write(prettier.output);
process.stdout.write(eslint.output);
if (prettier.code !== 0 || eslint.code !== 0) {
  process.stderr.write(`lint: prettier exited ${prettier.code}, eslint exited ${eslint.code}\n`);
  process.exit(1);
}
