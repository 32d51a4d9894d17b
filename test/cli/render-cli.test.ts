// --render and the human view through the built binary: redirected output carries no control sequence and keeps
// fenced content exact; a terminal gets colour unless told otherwise; the presentation flags are in the grammar.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { DISCERN_BIN, onlyJson, runCli } from '../helpers/cli.js';
import { MINIMAL_CONFIG, cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const ESC = '\x1b';

/** An environment that would colour a terminal: only the missing terminal keeps colour off. */
function colourEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = cleanEnv({ TERM: 'xterm-256color', LANG: 'en_US.UTF-8', ...extra });
  for (const key of ['NO_COLOR', 'FORCE_COLOR', 'LC_ALL', 'LC_CTYPE', 'COLUMNS']) if (!(key in extra)) delete env[key];
  return env;
}

/** The content lines of every fenced block in `markdown`. */
function fencedLines(markdown: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (/^ {0,3}```/.test(line)) {
      if (current) blocks.push(current);
      current = current ? undefined : [];
    } else current?.push(line);
  }
  return blocks;
}

function assertFencesKept(markdown: string, rendered: string): void {
  const blocks = fencedLines(markdown);
  assert.ok(blocks.length > 0, 'the page has fenced code');
  for (const block of blocks) {
    const expected = block.map((l) => (l === '' ? '' : `    ${l}`)).join('\n');
    assert.ok(rendered.includes(`${expected}\n`), `fenced content kept exactly:\n${expected}`);
  }
}

describe('redirected output has no control sequences and keeps fenced content exact', () => {
  for (const format of ['--render', undefined]) {
    it(`discern docs ${format ?? '(human)'}`, async () => {
      const markdown = await runCli(['docs', 'reference/cli', '--markdown'], { env: colourEnv() });
      const run = await runCli(['docs', 'reference/cli', ...(format ? [format] : [])], { env: colourEnv() });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!run.stdout.includes(ESC), 'no ESC byte');
      assert.notEqual(run.stdout, markdown.stdout, 'rendered, not the Markdown itself');
      assertFencesKept(markdown.stdout, run.stdout);
    });
    it(`discern status ${format ?? '(human)'} in a project`, async () => {
      const r = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
      repos.push(r);
      const run = await runCli(['status', ...(format ? [format] : [])], { cwd: r.root, env: colourEnv() });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!run.stdout.includes(ESC), 'no ESC byte');
      assert.match(run.stdout, /^Scratch: main checkout\n/);
      assert.match(run.stdout, /│ test +│/, 'the jobs table, drawn');
    });
  }
  it("the human view ends with the next action as an arrow line; the verdict and exit status are the Markdown's", async () => {
    const r = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
    repos.push(r);
    const human = await runCli(['doctor'], { cwd: r.root, env: colourEnv({ COLUMNS: '200' }) });
    const markdown = await runCli(['doctor', '--markdown'], { cwd: r.root, env: colourEnv() });
    assert.equal(human.code, markdown.code);
    assert.match(markdown.stdout, /^# discern doctor: ok with 2 warnings\n/);
    assert.match(human.stdout, /^discern doctor: ok with 2 warnings\n/);
    const next = /## Next\n\n(.*)\n$/.exec(markdown.stdout)?.[1] ?? '';
    assert.ok(human.stdout.endsWith(`→ ${next}\n`), human.stdout);
  });
  it('--plain and LANG=C draw with ASCII only (the content keeps its own characters)', async () => {
    for (const [args, env] of [
      [['--plain'], colourEnv()],
      [['--render'], colourEnv({ LANG: 'C' })],
    ] as const) {
      const run = await runCli(['docs', 'reference/exit-codes', ...args], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout, /[│┼─═•◦▪→…]/u, `${args.join(' ')} draws in ASCII`);
      assert.match(run.stdout, /^Exit codes\n/m);
    }
  });
});

describe('colour', () => {
  it('a redirected --render or human view never carries colour, even under FORCE_COLOR', async () => {
    for (const args of [
      ['docs', 'reference/exit-codes', '--render'],
      ['docs', 'reference/exit-codes'],
      ['docs', 'reference/exit-codes', '--render', '--plain'],
    ]) {
      const run = await runCli(args, { env: colourEnv({ FORCE_COLOR: '3' }) });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!run.stdout.includes(ESC), args.join(' '));
    }
  });
  it('on a terminal: colour, unless NO_COLOR, FORCE_COLOR=0 or --no-color', () => {
    const onTty = (args: string, env: Record<string, string>): string =>
      spawnSync(
        'script',
        [
          '-qec',
          `${JSON.stringify(process.execPath)} ${JSON.stringify(DISCERN_BIN)} docs reference/exit-codes ${args}`,
          '/dev/null',
        ],
        { env, encoding: 'utf8' },
      ).stdout;
    // The terminal's own line discipline may add control bytes of its own; colour is an SGR sequence.
    const sgr = /\x1b\[[0-9;]*m/;
    assert.match(onTty('--render', colourEnv()), sgr);
    assert.match(onTty('', colourEnv()), sgr);
    assert.doesNotMatch(onTty('--render', colourEnv({ NO_COLOR: '1' })), sgr);
    assert.doesNotMatch(onTty('--render', colourEnv({ FORCE_COLOR: '0' })), sgr);
    assert.doesNotMatch(onTty('', colourEnv({ FORCE_COLOR: 'false' })), sgr);
    assert.doesNotMatch(onTty('--render --no-color', colourEnv()), sgr);
  });
});

describe('the presentation flags in the grammar', () => {
  const refusals: [string, string[], RegExp][] = [
    ['--render with --json', ['docs', '--render', '--json'], /--render and --json are mutually exclusive/],
    ['an unknown theme', ['docs', '--theme', 'purple'], /--theme must be one of auto, light, dark/],
    ['an unknown theme, --theme=', ['--theme=purple', 'docs'], /--theme must be one of auto, light, dark/],
    ['a theme without its value', ['docs', '--theme'], /--theme needs a value <theme:string>/],
    ['a theme twice', ['docs', '--theme', 'light', '--theme', 'dark'], /--theme is given more than once/],
    ['a value for a switch', ['docs', '--plain=yes'], /--plain takes no value/],
    ['a presentation flag on the protocol command', ['mcp', '--no-color'], /does not apply/],
    ['the version flag with a presentation flag', ['-V', '--plain'], /-V takes nothing else/],
  ];
  for (const [name, args, message] of refusals) {
    it(`${name}: exit 2`, async () => {
      const run = await runCli(args);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, message);
    });
  }
  it('accepted anywhere before `--`, in both spellings, on any command', async () => {
    for (const args of [
      ['--theme', 'light', 'docs', 'reference/exit-codes', '--no-color'],
      ['docs', '--theme=dark', 'reference/exit-codes', '--plain'],
      ['help', 'docs', '--theme', 'auto', '--render'],
    ]) {
      const run = await runCli(args, { env: colourEnv() });
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    }
  });
  it('--json and --markdown print the same whatever the presentation flags say', async () => {
    for (const format of ['--json', '--markdown']) {
      const bare = await runCli(['docs', 'reference/exit-codes', format]);
      const flagged = await runCli([
        'docs',
        'reference/exit-codes',
        format,
        '--plain',
        '--no-color',
        '--theme',
        'light',
      ]);
      assert.equal(flagged.stdout, bare.stdout, format);
    }
    const run = await runCli(['docs', '--theme', 'purple', '--json']);
    assert.equal(run.code, 2);
    assert.equal(onlyJson(run)['error'], 'invalid_arguments');
  });
});
