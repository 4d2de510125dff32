import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { CliResult, rawDocument, runCli } from '@test/support/cli';

/** `unlist volume` and the endpoint group commands against the real api. */
describe('gpumkt: volumes and endpoint groups', () => {
  let api: TestApi;
  let host: TestUser;
  let other: TestUser;
  const LISTING = { owned: 70201, rented: 70202, foreign: 70203 };

  const cli = (user: TestUser, args: string[]) =>
    runCli(args, {
      env: { GPUMKT_URL: api.url, GPUMKT_API_KEY: user.apiKey, XDG_CONFIG_HOME: '/nonexistent' },
    });
  const ok = (result: CliResult): CliResult => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
    return result;
  };

  beforeAll(async () => {
    api = await startApi();
    host = await createTestUser(api);
    other = await createTestUser(api);
    const listing = (id: number, owner: TestUser, extra: Record<string, unknown> = {}) => ({
      id,
      owner_id: owner.id,
      machine_id: 7001,
      size_gb: 100,
      price_per_gb_month: 0.1,
      status: 'listed',
      active_rentals: 0,
      ...extra,
    });
    await api.app
      .get(DataSource)
      .query(`DELETE FROM volume_listing_audit WHERE listing_id = ANY($1)`, [
        Object.values(LISTING),
      ]);
    await loadFixtures(api, {
      volume_listings: [
        listing(LISTING.owned, host),
        listing(LISTING.rented, host, { active_rentals: 1 }),
        listing(LISTING.foreign, other),
      ],
    });
  });
  afterAll(() => api.close());

  it('unlists a volume (text and --raw) and reports refusals with exit 1', async () => {
    const unlisted = ok(await cli(host, ['unlist', 'volume', String(LISTING.owned), '--explain']));
    expect(unlisted.stdout).toBe(`Unlisted Volume ${LISTING.owned}.\n`);
    expect(unlisted.stderr).toContain(`[explain] POST ${api.url}/api/v0/volumes/unlist\n`);
    expect(unlisted.stderr).toContain(`body {"id":${LISTING.owned}}`);

    const again = ok(await cli(host, ['unlist', 'volume', String(LISTING.owned), '--raw']));
    expect(JSON.parse(again.stdout)).toEqual({
      success: true,
      msg: `Unlisted Volume ${LISTING.owned}.`,
    });

    const rented = await cli(host, ['unlist', 'volume', String(LISTING.rented)]);
    expect(rented.code).toBe(1);
    expect(rented.stderr).toBe(
      'Error 400 volume_listing_active: Unable to delete active volume listing\n',
    );
    const foreign = await cli(host, ['unlist', 'volume', String(LISTING.foreign), '--raw']);
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toBe('');
    expect(JSON.parse(foreign.stderr)).toEqual({
      success: false,
      error: 'volume_listing_not_found',
      msg: 'Volume listing does not exist',
    });
  });

  it('accepts model names with dots, slashes and colons as --endpoint_name', async () => {
    const created = ok(
      await cli(host, ['create', 'endpoint', '--endpoint_name', 'meta/llama-3.1:8b', '--raw']),
    );
    const id = JSON.parse(created.stdout).result as number;
    const listed = JSON.parse(ok(await cli(host, ['show', 'endpoints', '--raw'])).stdout);
    expect(listed.results.find((group: { id: number }) => group.id === id)).toMatchObject({
      endpoint_name: 'meta/llama-3.1:8b',
    });
    const refused = await cli(host, ['create', 'endpoint', '--endpoint_name', 'llama 3.1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Use 1 to 255 letters, digits, ., _, -, / or :.');
  });

  it('creates, lists, updates and deletes an endpoint group', async () => {
    const created = ok(
      await cli(host, [
        'create',
        'endpoint',
        '--endpoint_name',
        'cli-llm',
        '--target_util',
        '0.8',
        '--max_workers',
        '12',
        '--min_load',
        '10',
        '--explain',
      ]),
    );
    const id = Number(/^Created endpoint group (\d+)\.$/.exec(created.stdout.trim())?.[1]);
    expect(id).toBeGreaterThan(0);
    expect(created.stderr).toContain(
      'body {"client_id":"me","min_load":10,"min_cold_load":0,"target_util":0.8,"cold_mult":2.5,' +
        '"cold_workers":5,"max_workers":12,"endpoint_name":"cli-llm","max_queue_time":30,' +
        '"target_queue_time":10,"inactivity_timeout":null,"autoscaler_instance":"prod"}',
    );

    const rawCreate = JSON.parse(ok(await cli(host, ['create', 'endpoint', '--raw'])).stdout);
    expect(rawCreate).toEqual({ success: true, result: expect.any(Number) });

    const table = ok(await cli(host, ['show', 'endpoints']));
    expect(table.stdout).toMatch(/^id\s+name\s+state\s+min_load/);
    expect(table.stdout).toMatch(
      new RegExp(
        `^${id}\\s+cli-llm\\s+active\\s+10\\s+0\\s+0\\.8\\s+2\\.5\\s+5\\s+12\\s+30\\s+10\\s`,
        'm',
      ),
    );
    const listed = JSON.parse(ok(await cli(host, ['show', 'endpoints', '--raw'])).stdout);
    const row = listed.results.find((group: { id: number }) => group.id === id);
    expect(row).toMatchObject({ endpoint_name: 'cli-llm', target_util: 0.8, max_workers: 12 });
    expect(table.stdout).not.toContain(row.api_key);

    const updated = ok(
      await cli(host, [
        'update',
        'endpoint',
        String(id),
        '--max_workers',
        '30',
        '--endpoint_state',
        'suspended',
      ]),
    );
    expect(updated.stdout).toBe(`Updated endpoint group ${id}.\n`);
    expect(
      rawDocument(await cli(host, ['update', 'endpoint', String(id), '--min_load', '12', '--raw'])),
    ).toEqual({ success: true });
    // The rules between options hold on the merged result, which only the api knows.
    const merged = await cli(host, ['update', 'endpoint', String(id), '--cold_workers', '31']);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toBe('');
    expect(merged.stderr).toBe(
      'Error 400 invalid_args: Invalid request: cold_workers: must not exceed max_workers (31 > 30)\n',
    );
    const after = JSON.parse(
      ok(await cli(host, ['show', 'endpoints', '--raw'])).stdout,
    ).results.find((group: { id: number }) => group.id === id);
    expect(after).toMatchObject({
      max_workers: 30,
      endpoint_state: 'suspended',
      target_util: 0.8,
      min_load: 12,
      cold_workers: 5,
    });

    // Another user's group is not found; the owner's is deleted.
    const foreign = await cli(other, ['delete', 'endpoint', String(id)]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^Error 404/);
    const deleted = ok(await cli(host, ['delete', 'endpoint', String(id), '--raw']));
    expect(JSON.parse(deleted.stdout)).toMatchObject({ success: true });
    const gone = JSON.parse(ok(await cli(host, ['show', 'endpoints', '--raw'])).stdout).results;
    expect(gone.map((group: { id: number }) => group.id)).not.toContain(id);
    const again = await cli(host, ['delete', 'endpoint', String(id)]);
    expect(again.code).toBe(1);

    const second = rawDocument<{ result: number }>(
      await cli(host, ['create', 'endpoint', '--raw']),
    ).result;
    expect(ok(await cli(host, ['delete', 'endpoint', String(second)])).stdout).toBe(
      `Deleted endpoint group ${second}.\n`,
    );
    expect(ok(await cli(other, ['show', 'endpoints'])).stdout).toBe('No endpoint groups.\n');
  });

  it('retries the 429 of the rate limiter for unlist volume and create endpoint', async () => {
    // 6-second intervals leave room for the CLI to start before the limit lapses, also
    // on a loaded machine (a node process can take seconds to start there).
    const limited = await startApi({
      RATE_LIMITS: 'on',
      RATE_LIMIT_VOLUMES_UNLIST: '6',
      RATE_LIMIT_ENDPOINT_GROUPS_CREATE: '6',
    });
    try {
      const cases = [
        {
          args: ['unlist', 'volume', String(LISTING.owned)],
          prime: () =>
            limited
              .http()
              .post('/api/v0/volumes/unlist')
              .set(host.auth)
              .send({ id: LISTING.owned }),
          served: (result: CliResult) =>
            expect(JSON.parse(result.stdout)).toEqual({
              success: true,
              msg: `Unlisted Volume ${LISTING.owned}.`,
            }),
        },
        {
          args: ['create', 'endpoint', '--endpoint_name', 'cli-limited'],
          prime: () => limited.http().post('/api/v0/endptjobs/').set(host.auth).send({}),
          served: (result: CliResult) =>
            expect(JSON.parse(result.stdout)).toEqual({
              success: true,
              result: expect.any(Number),
            }),
        },
      ];
      for (const { args, prime, served } of cases) {
        const run = (extra: string[]) =>
          runCli([...args, '--raw', '--explain', ...extra], {
            env: {
              GPUMKT_URL: limited.url,
              GPUMKT_API_KEY: host.apiKey,
              XDG_CONFIG_HOME: '/nonexistent',
            },
          });
        // A loaded machine may start the CLI after the interval has lapsed: then the first
        // request is simply served, and the case is tried again (bounded).
        const afterPrime = async (extra: string[], limitedRun: (result: CliResult) => boolean) => {
          let result: CliResult | undefined;
          for (let attempt = 0; attempt < 3; attempt++) {
            expect([200, 429]).toContain((await prime()).status);
            result = await run(extra);
            if (limitedRun(result)) break;
          }
          return result!;
        };

        const refused = await afterPrime(['--retry', '0'], (result) => result.code !== 0);
        expect({ args, code: refused.code, stdout: refused.stdout }).toEqual({
          args,
          code: 1,
          stdout: '',
        });
        expect(refused.stderr).toMatch(
          /\{"detail":"API requests too frequent endpoint threshold=6(\.0)?"\}\n$/,
        );

        const retried = await afterPrime([], (result) => result.stderr.includes('429: retry'));
        expect({ args, code: retried.code }).toEqual({ args, code: 0 });
        served(retried);
        expect(retried.stderr).toMatch(/\[explain\] 429: retry 1 of 3 in [1-6]\.00 s\n/);
        expect(retried.stderr).toContain('(retry 1)');
      }
    } finally {
      await limited.close();
    }
  });

  it('checks options before sending: target_util at most 1.0, integers, cold <= max', async () => {
    for (const [args, message] of [
      [
        ['--target_util', '1.01'],
        "'--target_util <fraction>' argument '1.01' is invalid. Must be at most 1.0.",
      ],
      [
        ['--cold_workers', '1.5'],
        "'--cold_workers <n>' argument '1.5' is invalid. Expected a whole number.",
      ],
      [['--max_workers', '2'], '--cold_workers (5) must not exceed --max_workers (2)'],
      [['--min_load', 'ten'], "'--min_load <load>' argument 'ten' is invalid. Expected a number."],
    ] as const) {
      const result = await cli(host, ['create', 'endpoint', ...args, '--explain']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toContain('[explain]');
    }
  });
});
