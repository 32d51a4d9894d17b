// The terminal renderer on its own: wrapping to the width, code kept byte for byte, aligned tables, ASCII when
// the locale is not UTF-8, the two palettes, when colour is allowed, and the compact human arrangement.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  renderTerminal,
  terminalOptions,
  type Presentation,
  type TerminalTarget,
} from '../../src/render/terminal/index.js';
import { lexBlocks } from '../../src/render/terminal/lexer.js';
import { stripSgr, textWidth } from '../../src/render/terminal/text.js';

const FLAGS: Presentation = { noColor: false, plain: false, theme: 'auto' };
const UTF8 = { LANG: 'en_US.UTF-8' };
const ESC = '\x1b';

function render(
  markdown: string,
  options: {
    flags?: Partial<Presentation>;
    env?: Record<string, string>;
    tty?: boolean;
    columns?: number;
    compact?: boolean;
  } = {},
): string {
  const target: TerminalTarget = { env: options.env ?? UTF8, isTTY: options.tty ?? false, columns: options.columns };
  return renderTerminal(markdown, terminalOptions({ ...FLAGS, ...options.flags }, target, options.compact ?? false));
}

const PARAGRAPH =
  'discern runs the gate against the exact committed tip and records Proof for that commit; an agent relays the Proof line verbatim, and a person reads it in the terminal without scrolling sideways at any width.';

const CODE_LINES = ['  two leading spaces', 'trailing spaces   ', '\tone tab', '', '    ┌──┐ art', '      └──┘   '];
const FENCED = `# Page\n\nBefore.\n\n\`\`\`text\n${CODE_LINES.join('\n')}\n\`\`\`\n\nAfter.\n`;

describe('wrapping', () => {
  for (const width of [40, 80, 120]) {
    it(`paragraphs and list items fit in ${width} columns and keep every word`, () => {
      const out = render(`${PARAGRAPH}\n\n- ${PARAGRAPH}\n\n1. ${PARAGRAPH}\n`, {
        env: { ...UTF8, COLUMNS: String(width) },
      });
      for (const line of out.split('\n')) assert.ok(textWidth(line) <= width, `${textWidth(line)} > ${width}: ${line}`);
      const words = (text: string): string =>
        text
          .replace(/[•]|\b1\.\s/g, ' ')
          .split(/\s+/)
          .filter(Boolean)
          .join(' ');
      assert.equal(words(out), words(`${PARAGRAPH} ${PARAGRAPH} ${PARAGRAPH}`));
      if (width < PARAGRAPH.length) assert.ok(out.split('\n').length > 3, 'it wrapped');
    });
  }
  it('list items hang their continuation under the text, not the bullet', () => {
    const lines = render(`- ${PARAGRAPH}\n`, { env: { ...UTF8, COLUMNS: '40' } })
      .trimEnd()
      .split('\n');
    assert.match(lines[0] ?? '', /^• discern/);
    for (const line of lines.slice(1)) assert.match(line, /^ {2}\S/);
  });
  it('never narrower than 40 columns, whatever COLUMNS says; 80 when nothing says', () => {
    assert.equal(terminalOptions(FLAGS, { env: { COLUMNS: '10' }, isTTY: false }, false).width, 40);
    assert.equal(terminalOptions(FLAGS, { env: {}, isTTY: false }, false).width, 80);
    assert.equal(
      terminalOptions(FLAGS, { env: { COLUMNS: '100' }, isTTY: true, columns: 132 }, false).width,
      132,
      'the terminal itself first',
    );
  });
  it('a word longer than the line stands alone, uncut', () => {
    const path = `/very/long/${'segment/'.repeat(8)}file.json`;
    const out = render(`The record is at ${path}; keep it.\n`, { env: { ...UTF8, COLUMNS: '40' } });
    assert.ok(out.split('\n').includes(`${path};`), out);
  });
  it('a code span that fits is never broken at its spaces', () => {
    const out = render(`${'word '.repeat(6)}run \`discern status --verbose --json\` for all of them.\n`, {
      env: { ...UTF8, COLUMNS: '40' },
    });
    assert.ok(out.includes('`discern status --verbose --json`'), out);
  });
});

describe('fenced code is kept byte for byte', () => {
  for (const [name, options] of [
    ['render', {}],
    ['human', { compact: true }],
    ['plain', { flags: { plain: true } }],
    ['colour', { tty: true }],
    ['narrow', { env: { ...UTF8, COLUMNS: '40' } }],
  ] as const) {
    it(`${name}: every content line, with its leading and trailing spaces and tabs, unwrapped`, () => {
      const out = stripSgr(render(FENCED, options));
      const lines = out.split('\n');
      const first = lines.findIndex((l) => l.endsWith('two leading spaces'));
      assert.ok(first > 0, out);
      const indent = (lines[first] ?? '').length - (CODE_LINES[0] ?? '').length;
      CODE_LINES.forEach((expected, k) =>
        assert.equal((lines[first + k] ?? '').slice(expected === '' ? 0 : indent), expected, `line ${k}`),
      );
    });
  }
  it('a fence longer than the width is not wrapped', () => {
    const long = `x${' y'.repeat(60)}  `;
    const out = render(`\`\`\`\n${long}\n\`\`\`\n`, { env: { ...UTF8, COLUMNS: '40' } });
    assert.ok(out.split('\n').some((l) => l.endsWith(long)));
  });
  it('the lexer keeps the content exactly, also inside a list item and an unclosed fence', () => {
    assert.deepEqual(lexBlocks('```sh\n  a  \n\tb\n```'), [{ type: 'code', info: 'sh', lines: ['  a  ', '\tb'] }]);
    assert.deepEqual(lexBlocks('~~~\nopen\n'), [{ type: 'code', info: '', lines: ['open', ''] }]);
    const [list] = lexBlocks('- item\n\n  ```\n   x \n  ```\n');
    assert.deepEqual(list, {
      type: 'list',
      ordered: false,
      start: 1,
      items: [
        [
          { type: 'paragraph', text: 'item' },
          { type: 'code', info: '', lines: [' x '] },
        ],
      ],
    });
  });
});

describe('tables', () => {
  const TABLE =
    '| Check | Status | Detail |\n| --- | :---: | ---: |\n| node | ok | Node.js 20 |\n| repository \\| git | failed | not a checkout |\n';
  it('columns are aligned, with the alignment the delimiter row asks for', () => {
    const lines = render(TABLE).trimEnd().split('\n');
    assert.deepEqual(lines, [
      'Check            │ Status │         Detail',
      '─────────────────┼────────┼───────────────',
      'node             │   ok   │     Node.js 20',
      'repository | git │ failed │ not a checkout',
    ]);
  });
  it('a table wider than the terminal fits: the widest column gives way and its cells wrap, nothing cut', () => {
    const long = 'a long description of what this row checks and why it matters to the reader';
    const out = render(`| Name | About |\n| --- | --- |\n| first | ${long} |\n| second | short |\n`, {
      env: { ...UTF8, COLUMNS: '40' },
    });
    for (const line of out.split('\n')) assert.ok(textWidth(line) <= 40, line);
    const about = out
      .split('\n')
      .slice(2)
      .map((l) => l.split('│')[1]?.trim() ?? '')
      .join(' ');
    assert.ok(about.replace(/\s+/g, ' ').includes(long), out);
  });
  it('columns share the room by what they want, and keep their longest word and short commands whole', () => {
    const out = render(
      "| Step | Outcome | Command |\n| --- | --- | --- |\n| discern's agent files are current (instructions, skills, ADR index, wiring) | cancelled | `discern done --rerun` |\n",
      {
        env: { ...UTF8, COLUMNS: '60' },
      },
    );
    for (const line of out.split('\n')) assert.ok(textWidth(line) <= 60, line);
    assert.match(out, /│ cancelled │ `discern done --rerun`$/m);
    const step = out
      .split('\n')
      .slice(2)
      .map((l) => l.split('│')[0]?.trim() ?? '')
      .join(' ');
    assert.equal(
      step.replace(/\s+/g, ' ').trim(),
      "discern's agent files are current (instructions, skills, ADR index, wiring)",
    );
  });
  it('too many columns for the width: each row as Header: value lines', () => {
    const header = Array.from({ length: 8 }, (_, i) => `H${i}`);
    const row = header.map((h) => `${h}-value-long`);
    const out = render(`| ${header.join(' | ')} |\n|${' --- |'.repeat(8)}\n| ${row.join(' | ')} |\n`, {
      env: { ...UTF8, COLUMNS: '40' },
    });
    assert.ok(out.includes('H0: H0-value-long\n'), out);
    assert.ok(out.includes('H7: H7-value-long\n'), out);
  });
  it('plain: columns apart by spaces under a dashed header, no border characters', () => {
    const out = render(TABLE.replace(' \\| git', ''), { flags: { plain: true } });
    assert.doesNotMatch(out, /[│┼─|+]/);
    assert.equal(
      out,
      'Check       Status          Detail\n----------  ------  --------------\nnode          ok        Node.js 20\nrepository  failed  not a checkout\n',
    );
  });
});

describe('characters: Unicode only when the locale says UTF-8', () => {
  const DOC = '# Title\n\n## Section\n\n- item\n\n> quoted\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n## Next\n\nDo it.\n';
  for (const env of [{}, { LANG: 'C' }, { LC_ALL: 'POSIX', LANG: 'en_US.UTF-8' }]) {
    it(`ASCII only under ${JSON.stringify(env)}`, () => {
      for (const compact of [false, true]) {
        const out = render(DOC, { env, compact });
        assert.match(out, /^[\x20-\x7e\n]*$/, out);
      }
    });
  }
  for (const env of [{ LANG: 'en_US.UTF-8' }, { LC_CTYPE: 'C.utf8' }, { LC_ALL: 'de_DE.UTF-8', LANG: 'C' }]) {
    it(`box and bullet characters under ${JSON.stringify(env)}`, () => {
      assert.match(render(DOC, { env }), /• item[\s\S]*│ quoted[\s\S]*┼/);
    });
  }
  it('--plain is ASCII even in a UTF-8 locale, with no underlines', () => {
    const out = render(DOC, { flags: { plain: true }, compact: true });
    assert.match(out, /^[\x20-\x7e\n]*$/);
    assert.doesNotMatch(out, /^[=─═-]{3,}$/m);
  });
  it('content keeps its own characters: only the decoration changes', () => {
    assert.ok(render('Résumé — naïve café.\n', { env: {} }).includes('Résumé — naïve café.'));
  });
});

describe('colour', () => {
  const DOC =
    '# Title\n\nSome **bold** and `code` and [a link](https://example.com/x).\n\n## Next\n\nRun `discern done`.\n';
  it('off when stdout is not a terminal', () => {
    assert.ok(!render(DOC).includes(ESC));
    assert.ok(!render(DOC, { compact: true }).includes(ESC));
  });
  it('on for a terminal', () => {
    assert.ok(render(DOC, { tty: true }).includes(ESC));
  });
  for (const [name, options] of [
    ['NO_COLOR', { env: { ...UTF8, NO_COLOR: '1' }, tty: true }],
    ['--no-color', { flags: { noColor: true }, tty: true }],
    ['--plain', { flags: { plain: true }, tty: true }],
    ['TERM=dumb', { env: { ...UTF8, TERM: 'dumb' }, tty: true }],
    ['--no-color over FORCE_COLOR', { flags: { noColor: true }, env: { ...UTF8, FORCE_COLOR: '1' }, tty: true }],
    ['--plain over FORCE_COLOR', { flags: { plain: true }, env: { ...UTF8, FORCE_COLOR: '3' }, tty: true }],
    ['FORCE_COLOR=0 on a terminal', { env: { ...UTF8, FORCE_COLOR: '0' }, tty: true }],
    ['FORCE_COLOR=false on a terminal', { env: { ...UTF8, FORCE_COLOR: 'false' }, tty: true }],
    ['FORCE_COLOR when redirected', { env: { ...UTF8, FORCE_COLOR: '1' } }],
    ['FORCE_COLOR=3 when redirected', { env: { ...UTF8, FORCE_COLOR: '3' } }],
  ] as const) {
    it(`${name}: no ESC byte at all`, () => {
      for (const compact of [false, true]) assert.ok(!render(DOC, { ...options, compact }).includes(ESC), name);
    });
  }
  it('an empty NO_COLOR does not count (no-color.org)', () => {
    assert.ok(render(DOC, { env: { ...UTF8, NO_COLOR: '' }, tty: true }).includes(ESC));
  });
  it('FORCE_COLOR never turns it on: not when redirected, not over NO_COLOR on a terminal', () => {
    assert.ok(!render(DOC, { env: { ...UTF8, FORCE_COLOR: '1' } }).includes(ESC));
    assert.ok(!render(DOC, { env: { ...UTF8, FORCE_COLOR: '1', NO_COLOR: '1' }, tty: true }).includes(ESC));
    assert.ok(render(DOC, { env: { ...UTF8, FORCE_COLOR: '1' }, tty: true }).includes(ESC));
  });
  it('styles never stay open at a line end, and the text is the same with or without colour', () => {
    const coloured = render(`# Title\n\n**${PARAGRAPH}**\n`, { tty: true, columns: 40 });
    for (const line of coloured.split('\n').filter((l) => l.includes(ESC)))
      assert.ok(line.endsWith('\x1b[0m'), JSON.stringify(line));
    assert.equal(stripSgr(render(DOC, { tty: true })).replace(/`/g, ''), render(DOC).replace(/`/g, ''));
  });
  it('control characters in the content are shown, never passed to the terminal', () => {
    const out = render('A name with \x1b[31mred\x1b[0m in it.\n\n```\nout\x1b[2Kput\r\n```\n');
    assert.ok(!out.includes(ESC), JSON.stringify(out));
    assert.ok(out.includes('^[[31mred'), out);
  });
});

describe('palettes', () => {
  const DOC = '# Title\n\nSome `code`.\n';
  const colours = (env: Record<string, string>, theme: Presentation['theme'] = 'auto'): string =>
    render(DOC, { env: { ...UTF8, ...env }, tty: true, flags: { theme } });
  it('light and dark differ, and auto is dark without a hint', () => {
    assert.notEqual(colours({}, 'light'), colours({}, 'dark'));
    assert.equal(colours({}), colours({}, 'dark'));
  });
  it('auto follows COLORFGBG: a light background (7, 15) picks light, a dark one (0) dark', () => {
    assert.equal(colours({ COLORFGBG: '0;15' }), colours({}, 'light'));
    assert.equal(colours({ COLORFGBG: '0;default;7' }), colours({}, 'light'));
    assert.equal(colours({ COLORFGBG: '15;0' }), colours({}, 'dark'));
  });
  it('an explicit --theme wins over COLORFGBG', () => {
    assert.equal(colours({ COLORFGBG: '0;15' }, 'dark'), colours({}, 'dark'));
  });
  it('neither palette paints with bright yellow or cyan on a light background', () => {
    assert.doesNotMatch(colours({}, 'light'), /\x1b\[[0-9;]*\b(93|96|33|36)\b/);
  });
});

describe('inline forms', () => {
  it('links read `text (url)`, or the url alone when it is the text', () => {
    const out = render(
      'See [the manual](https://discern.sh/docs) and [https://x.dev](https://x.dev) and <https://y.dev>.\n',
    );
    assert.equal(out, 'See the manual (https://discern.sh/docs) and https://x.dev and https://y.dev.\n');
  });
  it('without colour, code keeps its backticks and emphasis loses its markers; escapes are read', () => {
    assert.equal(
      render('A **bold** _em_ `co*de*` \\*not em\\* snake_case_name.\n'),
      'A bold em `co*de*` *not em* snake_case_name.\n',
    );
  });
  it('with colour, code and bold are styled instead', () => {
    const out = render('A **bold** and `code`.\n', { tty: true });
    assert.equal(out, 'A \x1b[1mbold\x1b[0m and \x1b[33mcode\x1b[0m.\n');
  });
});

describe('inline parsing stays near-linear on pathological input', () => {
  // Each of these once rescanned the rest of the text from every unmatched marker (seconds each). The timeout
  // only catches a return of that; the assertions are about the output.
  const words = (s: string): string => s.split(/\s+/).filter(Boolean).join(' ');
  it(
    'unclosed `_`, `**`, backtick runs and brackets are literal text, every character kept',
    { timeout: 20000 },
    () => {
      for (const source of ['_a '.repeat(20000), '**a '.repeat(20000), '[a '.repeat(20000), '[a](b '.repeat(20000)]) {
        const out = render(source);
        assert.ok(!out.includes(ESC));
        assert.equal(words(out), words(source), source.slice(0, 8));
      }
      const ticks = '`'.repeat(20000);
      const mixed = `Run [a *b _c ${ticks} d and \`x\` ${ticks}\`\` end`;
      assert.equal(words(render(mixed)), words(mixed), 'a run matching no other run of its length is literal');
      const spans = `${'`a` '.repeat(10000)}${ticks} x ${ticks}`;
      assert.equal(
        words(render(spans, { tty: true }).replace(/\x1b\[[0-9;]*m/g, '')),
        words(`${'a '.repeat(10000)} x `),
      );
    },
  );
  it(
    'nesting deeper than sixteen levels leaves the inner markers as text instead of exhausting the stack',
    { timeout: 20000 },
    () => {
      const out = render(`${'['.repeat(20000)}x${'](u)'.repeat(20000)}`);
      assert.ok(out.includes('x'));
      assert.ok(out.replace(/\s/g, '').startsWith('['.repeat(100)), 'the unparsed brackets are shown');
    },
  );
});

describe('the two arrangements', () => {
  const DOC =
    '# discern doctor: ok\n\nAll good.\n\n## Other actions\n\n- Check the map.\n\n## Next\n\nRun `discern done`.\n';
  it('--render: headings underlined and blocks a blank line apart', () => {
    assert.equal(
      render(DOC),
      'discern doctor: ok\n══════════════════\n\nAll good.\n\nOther actions\n─────────────\n\n• Check the map.\n\nNext\n────\n\nRun `discern done`.\n',
    );
  });
  it('human: headings as lines without padding, and the next action as one arrow line', () => {
    assert.equal(
      render(DOC, { compact: true }),
      'discern doctor: ok\nAll good.\n\nOther actions\n• Check the map.\n\n→ Run `discern done`.\n',
    );
  });
  it('the human view keeps every word of the Markdown; only the Next heading becomes the arrow', () => {
    const words = (s: string): string[] =>
      s
        .replace(/^- |^## Next$|[#•→`─═]/gm, ' ')
        .split(/\s+/)
        .filter(Boolean);
    assert.deepEqual(words(render(DOC, { compact: true })), words(DOC));
  });
  it('human: only the final "## Next" is the arrow; a page\'s "## Next steps" or a mid-page "## Next" stays a section', () => {
    const page =
      '# Getting started\n\nIntro.\n\n## Next steps\n\n- Read the manual.\n- Run the gate.\n\n## Next\n\nA section named Next.\n\n## Later\n\nMore.\n\n## Next\n\nRun `discern done`.\n';
    assert.equal(
      render(page, { compact: true }),
      'Getting started\nIntro.\n\nNext steps\n• Read the manual.\n• Run the gate.\n\nNext\nA section named Next.\n\nLater\nMore.\n\n→ Run `discern done`.\n',
    );
    const noFinal = '# Page\n\n## Next steps\n\n- Do a thing.\n\n## Next\n\nStill content.\n\n## After\n\nEnd.\n';
    assert.ok(!render(noFinal, { compact: true }).includes('→'), 'a "## Next" followed by another section is content');
    assert.ok(
      render('# Page\n\n## Next\n\nDo it.\n\n### Detail\n\nMore.\n', { compact: true }).includes('→ Do it.'),
      'deeper headings may follow',
    );
  });
  it('a quote keeps its lines behind a bar', () => {
    assert.equal(render('> discern Proof: main @ abc — gate green\n'), '│ discern Proof: main @ abc — gate green\n');
  });
  it('nested lists indent under their parent', () => {
    assert.equal(render('- one\n  - inner\n- two\n'), '• one\n  ◦ inner\n• two\n');
    assert.equal(render('1. one\n2. two\n'), '1. one\n2. two\n');
  });
  it('empty Markdown renders as nothing', () => {
    assert.equal(render(''), '');
  });
});
