import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { ensureDatabaseExists } from '@app/platform';
import { ROOT, runManage, spawnApi, SpawnedProcess } from '@test/support/api';
import { OwnRedis } from '@test/support/own-redis';
import { temporaryDatabaseUrl } from '@test/support/test-env';

/** The context this file generates, and what the generator derives from its name. */
const NAME = 'reservations';
const ROUTE = `/api/v0/${NAME}/`;
const CONTROLLER = `libs/${NAME}/src/http/${NAME}.controller.ts`;

/** Generous bounds for whole-tree commands on a machine whose cores other tests share. */
const STEP_TIMEOUT_MS = 8 * 60_000;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run new:context` run in a temporary copy of the repository, and the tree it leaves
 * checked exactly as the generator claims: `npm run lint` and `npm run build` pass, the new
 * context's unit, integration and e2e tests pass (and the access matrix it joined), its
 * route answers over HTTP from the built api, and a route naming a bucket nobody
 * registered stops that api's start with one line. The copy's test runs get a database of
 * this run (its temporary prefix) and a Redis server of their own: their global teardown
 * drops their database and empties their Redis index, which must not be this run's.
 */
describe('npm run new:context', () => {
  let copy: string;
  let redis: OwnRedis;
  let database: { name: string; url: string };
  let env: NodeJS.ProcessEnv;
  let api: SpawnedProcess | undefined;
  const timings: string[] = [];
  /** Commands still running in the copy: a test that times out leaves none behind. */
  const running = new Set<number>();

  /** A command in the copy; its whole process group is killed if it outlives the bound. */
  async function inCopy(
    command: string,
    args: string[],
    extra: Record<string, string> = {},
  ): Promise<Finished> {
    const started = Date.now();
    const child = spawn(command, args, { cwd: copy, env: { ...env, ...extra }, detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    running.add(child.pid!);
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), STEP_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);
    running.delete(child.pid!);
    timings.push(
      `${[command, ...args].join(' ')}: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return { code, stdout, stderr };
  }

  /** What the copy's built api and manage use: this file's database and Redis. */
  const servicesOf = () => ({ DATABASE_URL: database.url, REDIS_URL: `${redis.url}/2` });

  /** Fails with the command's own output, so a failure says what went wrong. */
  function expectSuccess(result: Finished): void {
    if (result.code !== 0)
      throw new Error(`exit ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }

  /** The files of the working tree as git sees them (tracked or new, not ignored). */
  function copyTree(into: string): void {
    const listed = execFileSync(
      'git',
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      },
    )
      .toString()
      .split('\0')
      .filter((path) => path.length > 0 && existsSync(join(ROOT, path)));
    for (const path of listed) {
      mkdirSync(dirname(join(into, path)), { recursive: true });
      copyFileSync(join(ROOT, path), join(into, path));
    }
    symlinkSync(join(ROOT, 'node_modules'), join(into, 'node_modules'), 'dir');
  }

  beforeAll(async () => {
    copy = mkdtempSync(join(tmpdir(), 'new-context-'));
    copyTree(copy);
    redis = await OwnRedis.start();
    database = temporaryDatabaseUrl('new_context');
    env = {
      ...process.env,
      TEST_DATABASE_URL: database.url,
      TEST_REDIS_URL: `${redis.url}/1`,
    };
    // The copy's processes run from the copy's own build, never from another one.
    delete env.TEST_DIST_DIR;
  });

  afterAll(async () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await api?.stop();
    await redis?.stop();
    const admin = new URL(database.url);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${database.name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
    if (copy) rmSync(copy, { recursive: true, force: true });
    process.stdout.write(`new:context test steps:\n  ${timings.join('\n  ')}\n`);
  });

  it(
    'writes the context, wires it in and says what it wrote',
    async () => {
      const result = await inCopy('npm', ['run', '-s', 'new:context', '--', NAME]);
      expectSuccess(result);
      expect(result.stdout).toContain(`Wrote the context ${NAME} (migration range from 1767`);
      for (const path of [
        `libs/${NAME}/src/${NAME}.module.ts`,
        `libs/${NAME}/src/testing/index.ts`,
        CONTROLLER,
        `test/${NAME}.e2e-spec.ts`,
        'apps/api/src/api.module.ts',
        'nest-cli.json',
      ])
        expect(result.stdout).toContain(`  ${path}\n`);
      const migrations = execFileSync('ls', [
        join(copy, `libs/${NAME}/src/infrastructure/migrations`),
      ])
        .toString()
        .trim();
      expect(migrations).toMatch(new RegExp(`^\\d{8}00000-${NAME}-init\\.ts$`));
      const document = readFileSync(join(copy, 'docs/openapi.json'), 'utf8');
      expect(JSON.parse(document).paths[`/api/v0/${NAME}`]).toHaveProperty('post');
      expect(readFileSync(join(copy, 'docs/access.md'), 'utf8')).toContain(
        `| POST | \`${ROUTE}\` | \`misc\` | \`api.${NAME}.create\` |`,
      );
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'refuses a bad or taken name with one line and exit 2, writing nothing',
    async () => {
      const tree = () =>
        execFileSync(
          'find',
          ['.', '-path', './node_modules', '-prune', '-o', '-type', 'f', '-printf', '%p %s %T@\\n'],
          {
            cwd: copy,
          },
        ).toString();
      const before = tree();
      const refusals: Array<[string[], string]> = [
        [['Reservations'], "'Reservations' is not kebab-case"],
        [['gpu_reservations'], "'gpu_reservations' is not kebab-case"],
        [[NAME], `'${NAME}' exists already (libs/${NAME})`],
        [['billing'], "'billing' exists already (libs/billing)"],
        [['users'], 'the table users exists already'],
        [['tfa'], 'the api serves /api/v0/tfa/'],
        [['new'], "'new' would name a variable 'new', a reserved word"],
        [[], 'usage: npm run new:context -- <name>'],
        [['a', 'b'], 'usage: npm run new:context -- <name>'],
      ];
      for (const [args, reason] of refusals) {
        const result = await inCopy(process.execPath, ['dist/tools/new-context/main.js', ...args]);
        expect({ args, code: result.code, stdout: result.stdout }).toEqual({
          args,
          code: 2,
          stdout: '',
        });
        expect(result.stderr).toMatch(/^new:context: [^\n]+\n$/);
        expect(result.stderr).toContain(reason);
      }
      expect(tree()).toBe(before);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'leaves a tree that passes npm run lint',
    async () => expectSuccess(await inCopy('npm', ['run', '-s', 'lint'])),
    STEP_TIMEOUT_MS,
  );

  it(
    "leaves a tree that passes npm run build and the new context's own tests",
    async () => {
      expectSuccess(await inCopy('npm', ['run', '-s', 'build']));
      const result = await inCopy('npx', [
        'jest',
        '--config',
        'jest.config.js',
        `libs/${NAME}/`,
        `test/${NAME}.e2e-spec.ts`,
        'test/access-matrix.e2e-spec.ts',
      ]);
      expectSuccess(result);
      // Each project ran: a run that found no test file cannot pass for one that passed.
      for (const suite of [
        `unit libs/${NAME}/src/application/create-reservation.use-case.spec.ts`,
        `unit libs/${NAME}/src/testing/in-memory-reservations.spec.ts`,
        `integration libs/${NAME}/src/infrastructure/persistence/postgres-reservation.repository.int-spec.ts`,
        `e2e test/${NAME}.e2e-spec.ts`,
        'e2e test/access-matrix.e2e-spec.ts',
      ])
        expect(result.stderr).toMatch(new RegExp(`PASS ${suite.replace(/[.]/g, '\\.')}`));
      expect(result.stderr).toMatch(/Tests: +\d+ passed, \d+ total/);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'serves the new route from the built api',
    async () => {
      await ensureDatabaseExists(database.url);
      const services = servicesOf();
      api = await spawnApi(services, undefined, join(copy, 'dist'));
      const created = await runManage(
        ['user:create', '--email', 'generated@example.test', '--verified'],
        services,
        undefined,
        join(copy, 'dist'),
      );
      expect(created.code).toBe(0);
      const { api_key: apiKey } = created.json as { api_key: string };
      const response = await fetch(`${api.url}${ROUTE}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'first' }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        success: true,
        reservation: { id: expect.any(Number), name: 'first', created_at: expect.any(Number) },
      });
      await api.stop();
      api = undefined;
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'stops the built api at start, in one line, when a route names a bucket nobody registered',
    async () => {
      // The built controller is edited in place, as a rebuild of the edited source would
      // emit it: the check under test runs at start, and a second whole build adds nothing.
      expect(readFileSync(join(copy, CONTROLLER), 'utf8')).toContain(
        `@RateLimit('${NAME}_create')`,
      );
      const built = join(copy, 'dist', CONTROLLER.replace(/\.ts$/, '.js'));
      const emitted = readFileSync(built, 'utf8');
      const bucket = `RateLimit)('${NAME}_create')`;
      expect(emitted.split(bucket)).toHaveLength(2);
      writeFileSync(built, emitted.replace(bucket, `RateLimit)('${NAME}_craete')`));
      const started = await inCopy(process.execPath, ['dist/apps/api/src/main.js'], {
        ...servicesOf(),
        PORT: '0',
        HOST: '127.0.0.1',
      });
      expect(started.code).toBe(1);
      expect(started.stderr).toBe(
        'Rate-limit buckets no module registers (declare them with defineRateLimits and ' +
          'register the table with the RateLimitRegistry, docs/architecture.md): ' +
          `POST ${ROUTE} (ReservationsController.create) names '${NAME}_craete'\n`,
      );
    },
    STEP_TIMEOUT_MS,
  );
});
