import { loadFixtures, startApi, TestApi } from '@test/support/api';
import { sample, scrape } from '@test/support/metrics';
import { PostgresWithReplica } from '@test/support/postgres-replica';
import { until } from '@test/support/redis-topologies';
import { waitFor } from '@test/support/wait';

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
    const served = async (node: 'replica' | 'primary') =>
      sample(await scrape(withReplica), 'db_lag_tolerant_reads_total', { node });
    const [onReplica, onPrimary] = [await served('replica'), await served('primary')];
    const first = await page(withReplica, 100);
    expect(first.status).toBe(200);
    expect(first.total).toBe(12);
    // The operator sees it too: the read is counted as the replica's.
    expect((await served('replica')) - onReplica).toBe(1);
    expect((await served('primary')) - onPrimary).toBe(0);
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

  /** The nearest-rank percentile of some latencies (ms). */
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  };

  it('serves the report within a second (p99) from a frozen replica (SIGSTOP), from the primary', async () => {
    const timed: Array<{ status: number; ms: number; after: boolean }> = [];
    let frozen = false;
    let stop = false;
    // Two clients, so that queries are running on the replica when it freezes.
    const client = async () => {
      while (!stop) {
        const started = Date.now();
        const after = frozen;
        const { status } = await page(withReplica, 5);
        timed.push({ status, ms: Date.now() - started, after });
      }
    };
    const clients = Array.from({ length: 2 }, client);
    await until('some pages were served by the replica', async () => timed.length >= 20);
    await pg.freezeReplica();
    const primaryReads = async () =>
      sample(await scrape(withReplica), 'db_lag_tolerant_reads_total', { node: 'primary' });
    const primaryBefore = await primaryReads();
    frozen = true;
    const frozenAt = Date.now();
    try {
      // Enough pages that the p99 is the frozen replica's steady state, not the two
      // queries it froze in the middle of (each bounded by DATABASE_REPLICA_TIMEOUT_MS).
      await until(
        '300 pages were served after the freeze',
        async () => Date.now() - frozenAt >= 3_000 && timed.filter((t) => t.after).length >= 300,
        45_000,
      );
    } finally {
      await pg.thawReplica();
      stop = true;
    }
    await Promise.all(clients);
    const after = timed.filter((t) => t.after);
    // The pages asked for after the freeze were served, and counted, by the primary (but
    // for the two clients' last ones, which may have ended on the thawed replica).
    expect((await primaryReads()) - primaryBefore).toBeGreaterThanOrEqual(after.length - 2);
    const latencies = after.map((t) => t.ms);
    console.info(
      `frozen replica: ${after.length} report pages after the freeze, statuses ${JSON.stringify([
        ...new Set(after.map((t) => t.status)),
      ])}, p50 ${percentile(latencies, 50)} ms, p90 ${percentile(latencies, 90)} ms, ` +
        `p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
    );
    expect(after.filter((t) => t.status !== 200)).toEqual([]);
    expect(percentile(latencies, 99)).toBeLessThan(1_000);
    // None held: the deadline (500 ms) plus the page on the primary, generously on a busy machine.
    expect(Math.max(...latencies)).toBeLessThan(5_000);
    await until('the thawed replica is used again', async () => {
      const ready = await withReplica.http().get('/health/ready');
      return ready.body.details.database_replica.replica === 'up';
    });
  }, 60_000);

  it('passes over a replica whose WAL receiver is cut once it is behind the primary by the bound', async () => {
    const bound = 2;
    const strict = await startApi({
      DATABASE_URL: pg.url(DATABASE, 'primary'),
      RUN_WORKER: 'false',
      DATABASE_REPLICA_URL: pg.url(DATABASE, 'replica'),
      DATABASE_REPLICA_MAX_LAG_SECONDS: String(bound),
    });
    const original = await pg.cutReceiver();
    try {
      const before = (await page(strict, 100)).total;
      await loadFixtures(primaryOnly, { contracts: [contract(20150, 3, 9)] });
      const wroteAt = Date.now();
      // Stale at first (within the bound the replica may serve what it has), then fresh.
      const fresh = await waitFor(
        async () => ({ total: (await page(strict, 100)).total, at: Date.now() }),
        (seen) => seen.total === before + 1,
        { what: 'a report that has the new contract', timeoutMs: 30_000, intervalMs: 100 },
      );
      const ready = await strict.http().get('/health/ready');
      const metrics = await (await fetch(`${strict.metricsUrl}/metrics`)).text();
      const lag = Number(/^db_replica_lag_seconds (\S+)$/m.exec(metrics)?.[1]);
      console.info(
        `cut WAL receiver: the report had the write ${fresh.at - wroteAt} ms after it ` +
          `(DATABASE_REPLICA_MAX_LAG_SECONDS=${bound}); readiness ${JSON.stringify(ready.body.details.database_replica)}`,
      );
      expect(fresh.at - wroteAt).toBeLessThanOrEqual(bound * 1000 + 3_000);
      expect(ready.body.details.database_replica).toMatchObject({ replica: 'lagging' });
      expect(ready.body.details.database_replica.lag_seconds).toBeGreaterThan(bound);
      expect(lag).toBeGreaterThan(bound);
      expect(metrics).toMatch(/^db_replica_status\{status="lagging"\} 1$/m);
    } finally {
      await pg.restoreReceiver(original);
      await strict.close();
    }
    // Caught up again, the replica serves again.
    await until('the replica is up again', async () => {
      const ready = await withReplica.http().get('/health/ready');
      return ready.body.details.database_replica.replica === 'up';
    });
  }, 60_000);

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
