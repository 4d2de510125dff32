import { loadFixtures, startApi, TestApi } from '@test/support/api';
import { PostgresWithReplica } from '@test/support/postgres-replica';
import { until } from '@test/support/redis-topologies';

/**
 * The charges report on a PostgreSQL streaming replica (a cluster of its own, made with
 * pg_basebackup from a primary of its own): it is served there, a page walk may go back
 * and forth between replica and primary, a replica that has not replayed the walk's
 * snapshot is passed over, and a replica that stops is replaced by the primary without a
 * failed request.
 */
const DATABASE = 'gpumarket_replica_e2e';
const USER = 20001;
const KEY = 'replica-e2e-key-20001';
const auth = { Authorization: `Bearer ${KEY}` };
const DAY = 86_400;
const D0 = 1_767_225_600; // 2026-01-01T00:00Z

function contract(id: number, startDay: number, endDay: number) {
  return {
    id,
    user_id: USER,
    kind: 'instance',
    start: D0 + startDay * DAY,
    end: D0 + endDay * DAY,
    label: `c${id}`,
    template_id: null,
    endpoint_id: null,
    workergroup_id: null,
    charges: [
      {
        day: D0 + startDay * DAY,
        type: 'gpu',
        quantity: '10',
        unit: 'hours',
        rate: '0.5',
        amount: '5',
      },
    ],
  };
}

const FILTER = encodeURIComponent(JSON.stringify({ day: { gte: D0, lte: D0 + 40 * DAY } }));

interface ReportPage {
  status: number;
  total: number;
  next_token: string | null;
  results: Array<{ source: string }>;
}

describe('the charges report with DATABASE_REPLICA_URL (a streaming replica)', () => {
  let pg: PostgresWithReplica;
  let primaryOnly: TestApi;
  let withReplica: TestApi;

  beforeAll(async () => {
    pg = await PostgresWithReplica.start();
    // No in-process worker: these apis share the test Redis (and so its delivery queue)
    // with other test files but not their database, so they must not take their jobs.
    const primaryUrl = pg.url(DATABASE, 'primary');
    primaryOnly = await startApi({ DATABASE_URL: primaryUrl, RUN_WORKER: 'false' });
    withReplica = await startApi({
      DATABASE_URL: primaryUrl,
      RUN_WORKER: 'false',
      DATABASE_REPLICA_URL: pg.url(DATABASE, 'replica'),
      // Large, so that only the snapshot check (not the lag) can send a page to the primary.
      DATABASE_REPLICA_MAX_LAG_SECONDS: '3600',
    });
    await loadFixtures(primaryOnly, {
      users: [{ id: USER, email: 'replica-e2e@example.test', api_key: KEY, verified: true }],
      contracts: Array.from({ length: 12 }, (_, i) => contract(20100 + i, i, i + 2)),
    });
    await pg.caughtUp();
  });

  afterAll(async () => {
    await withReplica?.close();
    await primaryOnly?.close();
    await pg?.stop();
  });

  const page = async (api: TestApi, limit: number, token?: string): Promise<ReportPage> => {
    const after = token ? `&after_token=${encodeURIComponent(token)}` : '';
    const response = await api
      .http()
      .get(`/api/v0/charges/?select_filters=${FILTER}&limit=${limit}${after}`)
      .set(auth);
    return { status: response.status, ...response.body };
  };

  /** Walks every page, each from the api `via(pageNumber)` names. */
  const walk = async (via: (n: number) => TestApi, limit = 5) => {
    const pages: ReportPage[] = [];
    let token: string | undefined;
    do {
      const next = await page(via(pages.length), limit, token);
      expect(next.status).toBe(200);
      pages.push(next);
      token = next.next_token ?? undefined;
    } while (token);
    return { total: pages[0].total, sources: pages.flatMap((p) => p.results.map((r) => r.source)) };
  };

  /** Index and sequential scans of the billing tables, as counted on one node. */
  const billingScans = async (node: 'primary' | 'replica') => {
    const [row] = await pg.query(
      node,
      DATABASE,
      `SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::bigint AS n
         FROM pg_stat_user_tables WHERE relname LIKE 'billing\\_%'`,
    );
    return Number(row.n);
  };

  it('serves the report from the replica (its statement counters move) and says so in readiness', async () => {
    const before = await billingScans('replica');
    const first = await page(withReplica, 100);
    expect(first.status).toBe(200);
    expect(first.total).toBe(12);
    // Statistics reach the shared counters within the flush interval (at most ~10 s idle).
    await until(
      'the replica counted the report',
      async () => (await billingScans('replica')) > before,
      20_000,
    );
    console.info(`replica billing scans: ${before} -> ${await billingScans('replica')}`);

    const ready = await withReplica.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.database_replica).toMatchObject({ status: 'up', replica: 'up' });
  });

  it('walks pages across replica and primary, either way round, as one walk on one node', async () => {
    const whole = await walk(() => primaryOnly, 100);
    expect(whole.sources).toHaveLength(12);
    expect(await walk((n) => (n % 2 === 0 ? withReplica : primaryOnly))).toEqual(whole);
    expect(await walk((n) => (n % 2 === 0 ? primaryOnly : withReplica))).toEqual(whole);
  });

  it('passes over a replica that has not replayed what the walk already counted', async () => {
    await pg.query('replica', 'postgres', 'SELECT pg_wal_replay_pause()');
    try {
      // Sorts last (earliest end): only the later pages would miss it on the paused replica.
      await loadFixtures(primaryOnly, { contracts: [contract(20199, 0, 1)] });
      const first = await page(primaryOnly, 5);
      expect(first.total).toBe(13);
      let token = first.next_token ?? undefined;
      const sources = first.results.map((r) => r.source);
      while (token) {
        const next = await page(withReplica, 5, token);
        expect(next.status).toBe(200);
        sources.push(...next.results.map((r) => r.source));
        token = next.next_token ?? undefined;
      }
      expect(sources).toHaveLength(13);
      expect(sources).toEqual((await walk(() => primaryOnly, 100)).sources);
    } finally {
      await pg.query('replica', 'postgres', 'SELECT pg_wal_replay_resume()');
    }
    await pg.caughtUp();
  });

  it('falls back to the primary when the replica stops, with no failed request', async () => {
    const statuses: number[] = [];
    let stop = false;
    const load = (async () => {
      while (!stop) statuses.push((await page(withReplica, 5)).status);
    })();
    await until('some pages were served', async () => statuses.length >= 5);
    const servedBefore = statuses.length;
    await pg.stopReplica();
    await until(
      'pages are served after the stop',
      async () => statuses.length >= servedBefore + 10,
    );
    stop = true;
    await load;
    console.info(
      `replica stopped: ${statuses.length} report requests (${statuses.length - servedBefore} after the stop), ` +
        `statuses ${JSON.stringify([...new Set(statuses)])}`,
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const ready = await withReplica.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details.database_replica).toMatchObject({ status: 'up', replica: 'down' });
  });
});
