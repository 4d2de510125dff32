/**
 * Three projects, one command (`npm test`):
 *  - unit:        *.spec.ts beside the code, in-memory fakes, no services;
 *  - integration: *.int-spec.ts, adapters against the real PostgreSQL and Redis;
 *  - e2e:         test/**\/*.e2e-spec.ts, the real api over HTTP with PostgreSQL, Redis and BullMQ.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const moduleNameMapper = {
  '^@app/(platform|accounts|billing|identity-tfa|account-security|marketplace-volumes|autoscaling|audit-log|messaging|spend-guards)$':
    '<rootDir>/libs/$1/src',
  '^@app/(platform|accounts|billing|identity-tfa|account-security|marketplace-volumes|autoscaling|audit-log|messaging|spend-guards)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
  '^@app/api-client$': '<rootDir>/libs/api-client/src',
  '^@bench/(.*)$': '<rootDir>/bench/$1',
  '^@test/support$': '<rootDir>/test/support',
  '^@test/support/(.*)$': '<rootDir>/test/support/$1',
};

const shared = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/test-env.ts'],
};

module.exports = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  // Longest files first, from jest's timings or test/durations.json (see the file).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'],
      testTimeout: 30000,
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testTimeout: 60000,
    },
  ],
};
