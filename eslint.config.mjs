// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../../*'], message: 'Use the monorepo path aliases (@app/...).' }] },
      ],
    },
  },
  {
    files: ['apps/cli/**/*.ts', 'apps/manage/**/*.ts', 'libs/*/src/operator/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
