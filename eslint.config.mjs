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
    },
  },
  // Layout is Prettier's (npm run format; npm run lint checks it): no lint rule argues with it.
  prettier,
);
