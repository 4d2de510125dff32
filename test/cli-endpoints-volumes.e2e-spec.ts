import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { CliResult, runCli } from '@test/support/cli';

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
    expect(rented.stderr).toMatch(/^Error 400( \S+)?: Unable to delete active volume listing\n$/);
    const foreign = await cli(host, ['unlist', 'volume', String(LISTING.foreign), '--raw']);
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toBe('');
    expect(JSON.parse(foreign.stderr)).toMatchObject({
      success: false,
      msg: 'Volume listing does not exist',
    });
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
    const after = JSON.parse(
      ok(await cli(host, ['show', 'endpoints', '--raw'])).stdout,
    ).results.find((group: { id: number }) => group.id === id);
    expect(after).toMatchObject({ max_workers: 30, endpoint_state: 'suspended', target_util: 0.8 });

    // Another user's group is not found; the owner's is deleted.
    const foreign = await cli(other, ['delete', 'endpoint', String(id)]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/^Error 404/);
    const deleted = ok(await cli(host, ['delete', 'endpoint', String(id), '--raw']));
    expect(JSON.parse(deleted.stdout)).toMatchObject({ success: true });
    const gone = JSON.parse(ok(await cli(host, ['show', 'endpoints', '--raw'])).stdout).results;
    expect(gone.map((group: { id: number }) => group.id)).not.toContain(id);
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
