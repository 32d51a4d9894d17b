// The house measures read syntax, not text, and the import-cycle check holds src/ at none: a cycle makes load
// order decide which module sees the other half-made, and ties modules that should be read one at a time.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, resolveImport } from '../../tools/house/import-cycles.js';
import { sourceFacts } from '../../tools/house/source-facts.js';
import { readSourceTree } from '../../tools/house/tree.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

describe('source facts', () => {
  const cases: {
    name: string;
    code: string;
    casts?: number;
    switches?: number;
    git?: number;
    values?: string[];
    others?: string[];
  }[] = [
    { name: 'an outcome cast', code: 'const a = {} as EnterOutcome;\nconst b = <AnyOutcome>{};', casts: 2 },
    { name: 'a cast to another type', code: 'const a = {} as Record<string, Outcome>;', casts: 0 },
    {
      name: 'an outcome named in a string or a comment',
      code: "// as EnterOutcome\nconst s = 'as EnterOutcome';",
      casts: 0,
    },
    {
      name: 'surface switches both ways round',
      code: "if (ctx.surface === 'mcp') {}\nif ('cli' !== surface) {}",
      switches: 2,
    },
    { name: 'a comparison of something else', code: "if (ctx.mode === 'mcp') {}", switches: 0 },
    { name: 'raw git calls', code: "git(['status']);\ngit(args);\nother.git(['x']);\ngitOk(['y']);", git: 1 },
    {
      name: 'value, type-only and lazy imports',
      code: [
        "import { a } from './a.js';",
        "import type { B } from './b.js';",
        "import { type C } from './c.js';",
        "import { type D, e } from './d.js';",
        "import './side.js';",
        "export { f } from './f.js';",
        "export type { G } from './g.js';",
        "import { node } from 'node:fs';",
        "const lazy = await import('./lazy.js');",
        "type T = import('./t.js').T;",
      ].join('\n'),
      values: ['./a.js', './d.js', './side.js', './f.js'],
      others: ['./b.js', './c.js', './g.js', './lazy.js', './t.js'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const facts = sourceFacts('x.ts', c.code);
      if (c.casts !== undefined) assert.equal(facts.outcomeCasts.length, c.casts);
      if (c.switches !== undefined) assert.equal(facts.surfaceSwitches.length, c.switches);
      if (c.git !== undefined) assert.equal(facts.rawGitCalls.length, c.git);
      if (c.values) assert.deepEqual(facts.valueImports, c.values);
      if (c.others) assert.deepEqual(facts.otherImports, c.others);
    });
  }

  it('counts lines with or without a final newline', () => {
    assert.equal(sourceFacts('x.ts', 'a\nb\n').lines, 2);
    assert.equal(sourceFacts('x.ts', 'a\nb').lines, 2);
    assert.equal(sourceFacts('x.ts', '').lines, 0);
  });
});

describe('import cycles', () => {
  it('resolves a relative .js import to the .ts file beside it', () => {
    const known = new Set(['src/a/b.ts', 'src/c.ts', 'src/bin.cts']);
    assert.equal(resolveImport('src/a/x.ts', './b.js', known), 'src/a/b.ts');
    assert.equal(resolveImport('src/a/x.ts', '../c.js', known), 'src/c.ts');
    assert.equal(resolveImport('src/x.ts', './bin.cjs', known), 'src/bin.cts');
    assert.equal(resolveImport('src/x.ts', './gone.js', known), undefined);
  });

  it('finds each strongly connected group once, and no cycle in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['e']],
      ['e', []],
      ['s', ['s']],
      ['x', ['y', 'outside']],
      ['y', ['x']],
    ]);
    assert.deepEqual(importCycles(graph), [['a', 'b', 'c'], ['s'], ['x', 'y']]);
    assert.deepEqual(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
      [],
    );
  });

  it('walks a chain of ten thousand modules without overflowing', () => {
    const graph = new Map(Array.from({ length: 10_000 }, (_, i) => [`m${i}`, i === 9_999 ? ['m0'] : [`m${i + 1}`]]));
    assert.equal(importCycles(graph)[0]?.length, 10_000);
  });

  it('src/ has none, counting type-only and lazy imports too', () => {
    const tree = readSourceTree(repo, 'src');
    assert.ok(tree.files.size > 100, 'src/ was read');
    const cycles = importCycles(tree.fullGraph).map((c) => c.join(' ↔ '));
    assert.deepEqual(cycles, [], `import cycles in src/ (npm run house:measure lists them):\n${cycles.join('\n')}`);
  });
});
