// ESLint's and typescript-eslint's recommended rules, plus the type-aware promise rules the codebase needs: a
// dropped promise is a lost error or a write that races the exit (docs/decisions/0044). Formatting is Prettier's.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'generated/', 'schema/', 'types/', 'test/fixtures/', 'demo/example/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.cts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // node:test's describe and it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A leading underscore names what a destructuring leaves out on purpose (`const { a: _a, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // discern matches control characters on purpose and everywhere it does: it strips terminal escapes from job
      // output and refuses NUL and C0 characters in names, paths and arguments (docs/decisions/0039).
      'no-control-regex': 'off',
    },
  },
  {
    // The bin is CommonJS so that V8's code cache can load the bundle (docs/decisions/0042).
    files: ['**/*.cts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
