// Lint rules: typescript-eslint's recommended set plus the few conventions this codebase keeps.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.confbus/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'child_process',
            'crypto',
            'fs',
            'fs/promises',
            'http',
            'https',
            'net',
            'os',
            'path',
            'url',
          ].map((name) => ({ name, message: `Import node:${name} instead` })),
        },
      ],
    },
  },
  {
    // The core package is I/O-free: no node: modules that touch the outside world.
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'node:fs*',
            'node:child_process',
            'node:net',
            'node:http',
            'node:https',
            'fs',
            'child_process',
          ],
        },
      ],
    },
  },
);
