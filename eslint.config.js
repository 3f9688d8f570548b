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
    // One responsibility per module: a source file stays within 300 lines, counted as `wc -l` counts them (blank
    // lines and comments included; ESLint drops the empty string after the final newline). Tests and scripts are
    // not covered.
    files: ['packages/*/src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Nest's injector reads constructor types from decorator metadata: an import used only as a parameter type
    // is a value there (the typescript-eslint rule knows this when told how the package compiles).
    files: ['packages/nestjs/**/*.ts'],
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
  },
  {
    // The core and contracts packages are I/O-free: no node: modules that touch the outside world.
    files: ['packages/core/src/**/*.ts', 'packages/contracts/src/**/*.ts'],
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
  {
    // A route that writes its response itself takes the reply over through AnsweredRequests.takeOver, which hijacks
    // it and reports the response's end to the metrics, the access log and the audit trail: a bare hijack() would
    // leave the request uncounted (fastify's onResponse does not see a response that outlives its reply).
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/support/answered-requests.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'hijack',
          message: 'Take the reply over with AnsweredRequests.takeOver (support/answered-requests.ts)',
        },
      ],
    },
  },
  {
    // The server reads its settings once, by area: `<area>/<area>-settings.ts` declares an area's keys and reads
    // them into typed values; server-config.ts assembles them (resolveServerConfig). Nothing else sees the string-keyed
    // Settings map, so a mistyped key is a compile error rather than a silent false or [].
    files: ['packages/server/src/**/*.ts'],
    ignores: [
      'packages/server/src/**/*-settings.ts',
      'packages/server/src/settings/**',
      'packages/server/src/server-config.ts',
      'packages/server/src/server-settings.ts',
      // The composition root takes the settings and hands them to resolveServerConfig; logging.ts to core's reader.
      'packages/server/src/create-config-server.ts',
      'packages/server/src/logging.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@confbus/core',
              importNames: ['Settings'],
              message:
                'Read settings in an <area>-settings.ts reader (see packages/server/src/server-config.ts) and take its typed value',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...['callee.object.name', 'callee.object.property.name'].map((object) => ({
          selector: `CallExpression[${object}=/[sS]ettings$/][callee.property.name=/^(string|optionalString|number|boolean|list|get|has|keysUnder|sourceOf|spellingOf|isSecret|isDeclared|entries)$/]`,
          message: 'A string-keyed settings read belongs in an <area>-settings.ts reader',
        })),
      ],
    },
  },
);
