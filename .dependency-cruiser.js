/**
 * Architecture rules, run by `npm run lint` (docs/architecture.md "Dependency rules"):
 * - layers point inward: domain/ imports no other layer of its context, application/ only
 *   domain/ and its ports (never http/, infrastructure/, operator/ or testing/), and a
 *   context's http/ reaches its adapters only through the application's ports;
 * - domain/ and application/ stay free of persistence, cache and queue frameworks, and
 *   only the platform's queue infrastructure talks to BullMQ (everything else uses the
 *   typed JobQueue);
 * - a context reaches another context only through its public index.ts (fakes and test kits
 *   through its testing/index.ts), and only tests and test kits import testing/;
 * - the command-line client talks HTTP only and never imports a context (the generated
 *   api client, libs/api-client, is its one library, and imports no other);
 * - operator/ reaches its context's adapters through the application's ports, as http/;
 * - test/ (the end-to-end tests and their support) reaches a context through its index.ts
 *   or its testing/index.ts, no test file imports another, and nothing in apps/ or libs/
 *   imports test/.
 *
 * Unit and integration specs are not cruised (they test their own context's insides);
 * testing/ is, so that an import of a fake from production code is seen, and so is test/.
 */
const CONTEXTS =
  'platform|accounts|billing|identity-tfa|account-security|marketplace-volumes|autoscaling|audit-log|messaging|spend-guards';

module.exports = {
  forbidden: [
    {
      name: 'domain-imports-nothing-outward',
      comment: 'domain/ is the centre: it imports no other layer of its context.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/domain/' },
      to: { path: '^libs/$1/src/(application|http|infrastructure|operator|testing)/' },
    },
    {
      name: 'application-imports-only-domain',
      comment: 'application/ knows its ports and the domain, never an adapter or the wire.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/application/' },
      to: { path: '^libs/$1/src/(http|infrastructure|operator|testing)/' },
    },
    {
      name: 'http-reaches-adapters-through-ports',
      comment:
        "A context's http/ calls use cases, never its own adapters. The platform's http/ is the " +
        'framework glue itself (health checks, metrics) and is left out.',
      severity: 'error',
      from: { path: '^libs/(?!platform/)([^/]+)/src/http/' },
      to: { path: '^libs/$1/src/infrastructure/' },
    },
    {
      name: 'operator-reaches-adapters-through-ports',
      comment:
        "A context's operator commands call use cases, never its own adapters (as its http/ " +
        'does).',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/operator/' },
      to: { path: '^libs/$1/src/infrastructure/' },
    },
    {
      name: 'core-without-infrastructure-frameworks',
      comment:
        'domain/ and application/ must not import typeorm, ioredis, bullmq or @nestjs/typeorm.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/(domain|application)/' },
      to: { path: 'node_modules/(typeorm|ioredis|bullmq|@nestjs/typeorm|pg)/' },
    },
    {
      name: 'queues-through-job-queue',
      comment:
        'Jobs go through the typed JobQueue of the platform (defineQueue, QueueRegistry): only ' +
        'its queue infrastructure talks to BullMQ.',
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: '^libs/platform/src/infrastructure/queue/' },
      to: { path: 'node_modules/bullmq/' },
    },
    {
      name: 'domain-is-plain-typescript',
      comment: 'domain/ is plain TypeScript: no NestJS, no class-validator.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { path: 'node_modules/(@nestjs|class-validator|class-transformer)/' },
    },
    {
      name: 'contexts-meet-through-index',
      comment:
        'Another context is imported only through its index.ts, or its fakes through its testing/index.ts.',
      severity: 'error',
      from: { path: `^libs/(${CONTEXTS})/src/` },
      to: {
        path: '^libs/[^/]+/src/.+',
        pathNot: [
          '^libs/$1/src/',
          '^libs/[^/]+/src/index\\.ts$',
          '^libs/[^/]+/src/testing/index\\.ts$',
        ],
      },
    },
    {
      name: 'only-tests-import-testing',
      comment:
        'testing/ holds fakes, contract suites and test kits: production code never imports it.',
      severity: 'error',
      from: { pathNot: ['/testing/', '^test/'] },
      to: { path: '^libs/[^/]+/src/testing/' },
    },
    {
      name: 'apps-use-context-index-only',
      comment:
        "Apps import a context's index.ts only; the platform has a second entry point, " +
        'tracing.ts, the preload each entry point imports first (docs/architecture.md).',
      severity: 'error',
      from: { path: '^apps/' },
      to: {
        path: `^libs/(${CONTEXTS})/src/(?!index\\.ts$)`,
        pathNot: '^libs/platform/src/tracing\\.ts$',
      },
    },
    {
      name: 'cli-speaks-http-only',
      comment:
        'The command-line client never imports a context library; it speaks HTTP through the ' +
        'typed client generated from the OpenAPI document (libs/api-client), which imports none.',
      severity: 'error',
      from: { path: '^apps/cli/' },
      to: { path: '^libs/', pathNot: '^libs/api-client/src/' },
    },
    {
      name: 'api-client-imports-no-library',
      comment: 'The generated client is what the CLI may use: it must not pull a context in.',
      severity: 'error',
      from: { path: '^libs/api-client/' },
      to: { path: '^libs/', pathNot: '^libs/api-client/' },
    },
    {
      name: 'tests-reach-contexts-through-index',
      comment:
        'The end-to-end tests and their support reach a context through its index.ts, or its ' +
        'fakes, kits and test hooks through its testing/index.ts. The global set-up and ' +
        "teardown run outside jest's module registry (no path aliases) and apply the " +
        "platform's migrations directly. identity-tfa is exempt until its reshape gives it a " +
        'testing/index.ts for the Redis keys and settings its tests read.',
      severity: 'error',
      from: { path: '^test/', pathNot: '^test/support/global-(setup|teardown)\\.ts$' },
      to: {
        path: `^libs/(${CONTEXTS})/src/`,
        pathNot: [
          '^libs/[^/]+/src/index\\.ts$',
          '^libs/[^/]+/src/testing/index\\.ts$',
          '^libs/identity-tfa/src/',
        ],
      },
    },
    {
      name: 'test-files-stand-alone',
      comment: 'No test file imports another: what several share lives in test/support/.',
      severity: 'error',
      from: { path: '^test/' },
      to: { path: '\\.e2e-spec\\.ts$' },
    },
    {
      name: 'production-never-imports-tests',
      comment: 'Apps and libraries never import test/ (its fake providers, servers and helpers).',
      severity: 'error',
      from: { path: '^(apps|libs)/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^libs/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^dist/|\\.spec\\.ts$|\\.int-spec\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
