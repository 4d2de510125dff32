// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import checkFile from 'eslint-plugin-check-file';
import { readdirSync } from 'node:fs';

/** The bounded contexts: every library but the generated api client. */
const CONTEXTS = readdirSync(new URL('./libs', import.meta.url)).filter(
  (name) => name !== 'api-client',
);

/**
 * Contexts whose migration files keep their old names for now (none today). Remove an
 * entry once its files follow the rule.
 */
const MIGRATION_NAMES_PENDING = [];

/**
 * Comments cite only this repository's documents (docs/architecture.md "Names"): never a
 * specification or wire contract the repository does not hold.
 */
const OUTSIDE_DOCUMENTS = ['the spec', "spec's", 'spec "', 'wire-contract', 'wire contract'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.dist-*/**',
      'node_modules/**',
      'coverage/**',
      '*.js',
      '*.mjs',
      // Written by `npm run api-client:generate`, checked against the generator by a test.
      '**/*.generated.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // jest loads its test sequencer with a plain require(): CommonJS, run by Node as is.
    files: ['test/support/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../../../*'], message: 'Use the monorepo path aliases (@app/...).' },
          ],
        },
      ],
    },
  },
  {
    // docs/architecture.md "Where does a helper that is not a use case go?": application/
    // holds use cases, services and ports (in a ports/ folder), at any depth of capability
    // folders, with their specs; migrations are named <timestamp>-<context>-<change>.ts.
    files: ['libs/*/src/**/*.ts'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        {
          'libs/*/src/application/**/*.ts':
            '+([a-z0-9-])@(.use-case|.service|*(.+([a-z0-9-])).port)?(.spec|.int-spec)',
          'libs/*/src/application/**/ports/**/*.ts': '+([a-z0-9-])*(.+([a-z0-9-])).port?(.spec)',
          ...Object.fromEntries(
            CONTEXTS.filter((context) => !MIGRATION_NAMES_PENDING.includes(context)).map(
              (context) => [
                `libs/${context}/src/infrastructure/migrations/*.ts`,
                `+([0-9])-${context}-+([a-z0-9-])`,
              ],
            ),
          ),
        },
        { ignoreMiddleExtensions: false },
      ],
      'check-file/folder-match-with-fex': ['error', { '*.port.ts': '**/application/**/ports/' }],
    },
  },
  {
    // The platform is the one global module (docs/architecture.md "Adding a context", step
    // 11): a context's providers reach other modules only through its exports.
    files: [
      'apps/**/*.ts',
      ...CONTEXTS.filter((c) => c !== 'platform').map((c) => `libs/${c}/**/*.ts`),
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Decorator > CallExpression[callee.name='Global']",
          message: 'No module but the platform is @Global(): export what others need.',
        },
        {
          selector: "Property[key.name='global'][value.value=true]",
          message: 'No module but the platform is global: export what others need.',
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-warning-comments': ['error', { terms: OUTSIDE_DOCUMENTS, location: 'anywhere' }],
    },
  },
  {
    files: [
      'apps/cli/**/*.ts',
      'apps/manage/**/*.ts',
      'libs/*/src/operator/**/*.ts',
      'bench/**/*.ts',
      'test/**/*.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
