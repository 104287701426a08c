// Lint: typescript-eslint's recommended rules over every TypeScript file; Prettier owns the layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'src/highlight/themes/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The browsable API's script runs in the browser, as a classic script.
    files: ['server/web/static/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        URLSearchParams: 'readonly',
        FormData: 'readonly',
        DOMParser: 'readonly',
      },
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Two copies of SQLite in one process do not see each other's POSIX locks on the same file: a second copy's
      // first connection truncates the -shm the first copy's connections use, and its writes and checkpoints ignore
      // their locks (https://www.sqlite.org/howtocorrupt.html, 2.2.1 "Multiple copies of SQLite linked into the same
      // application"; docs/scaling.md "One SQLite library in a process").
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'node:sqlite',
              message: 'node-sqlite3 is the SQLite of this process; a second copy breaks its locks (docs/scaling.md).',
            },
          ],
        },
      ],
    },
  },
  // Layout is Prettier's (npm run format; npm run lint checks it): no lint rule argues with it.
  prettier,
);
