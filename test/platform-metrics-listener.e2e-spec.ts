import { parser } from '@prometheus-io/lezer-promql';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MetricsListener } from '@app/platform';
import { createTestUser, ROOT, spawnApi, startApi, TestApi } from '@test/support/api';
import { spawnWorker, WorkerProcess } from '@test/support/delivery';
import { freePort, OwnRedis } from '@test/support/own-redis';
import { readCode } from '@test/support/tfa';
import { sendEmail } from '@test/support/tfa-requests';
import { sample } from '@test/support/metrics';
import { waitFor } from '@test/support/wait';

/**
 * GET /metrics is served on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by
 * default), never on the api's public port, where its 2FA counters would tell anyone how a
 * guessing campaign goes. The worker serves its own metrics and probes the same way. The
 * example alert rules name only metrics that the two serve.
 */

/** The series names of an exposition (histograms and summaries with their suffixes). */
function seriesNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const typed = /^# TYPE (\w+) (\w+)$/.exec(line);
    if (typed) {
      names.add(typed[1]);
      if (typed[2] === 'histogram')
        for (const suffix of ['_bucket', '_sum', '_count']) names.add(typed[1] + suffix);
      if (typed[2] === 'summary')
        for (const suffix of ['_sum', '_count']) names.add(typed[1] + suffix);
    }
    const sample = /^(\w+)[{ ]/.exec(line);
    if (sample) names.add(sample[1]);
  }
  return names;
}

/** GET /metrics with its content type checked. */
async function scrapeAt(metricsUrl: string): Promise<string> {
  const response = await fetch(`${metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function outsideAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? [])
      if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return null;
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The metric names an alert expression selects (every vector selector of its syntax tree). */
function metricNamesOf(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  let error: string | null = null;
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) error = `syntax error at ${node.from} in ${expr}`;
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        if (identifier) names.push(expr.slice(identifier.from, identifier.to));
      }
    },
  });
  if (error) throw new Error(error);
  return names;
}

describe('the metrics listener', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('is not the public port: GET /metrics there is 404 in the error envelope', async () => {
    for (const path of ['/metrics', '/metrics/']) {
      const response = await api.http().get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: 'not_found',
        msg: `No route for GET ${path}`,
      });
    }
  });

  it('serves the exposition on its own port, bound to loopback by default, and nothing else', async () => {
    const listener = api.app.get(MetricsListener);
    expect(listener.address).toBe('127.0.0.1');
    expect(api.metricsUrl).not.toBe(api.url);
    const text = await scrapeAt(api.metricsUrl);
    expect(text).toContain('# TYPE tfa_lockouts_total counter');
    expect(text).toContain('# TYPE tfa_verifications_total counter');
    const other = await fetch(`${api.metricsUrl}/api/v0/users/current/`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      success: false,
      error: 'not_found',
      msg: 'No route for GET /api/v0/users/current',
    });
  });

  it('reports the database pool: connections in use and idle, waiters, its size, the wait time', async () => {
    const user = await createTestUser(api);
    await api.http().get('/api/v0/users/current/').set(user.auth).expect(200);
    const filter = encodeURIComponent(
      JSON.stringify({ day: { gte: 1_767_225_600, lte: 1_767_312_000 } }),
    );
    await api.http().get(`/api/v0/charges/?select_filters=${filter}`).set(user.auth).expect(200);
    const text = await scrapeAt(api.metricsUrl);
    expect(sample(text, 'db_pool_max_connections', { pool: 'primary' })).toBe(10);
    expect(text).toMatch(/^db_pool_connections_in_use\{pool="primary"\} \d+$/m);
    expect(sample(text, 'db_pool_connections_idle', { pool: 'primary' })).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^db_pool_waiting\{pool="primary"\} \d+$/m);
    expect(sample(text, 'db_pool_wait_seconds_count', { pool: 'primary' })).toBeGreaterThanOrEqual(
      2,
    );
    // Without DATABASE_REPLICA_URL the report is read on the primary, and said so.
    expect(sample(text, 'db_lag_tolerant_reads_total', { node: 'primary' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, 'db_replica_status', { status: 'none' })).toBe(1);
  });

  it('on an api listening on every address, keeps the metrics on loopback', async () => {
    const outside = outsideAddress();
    const spawned = await spawnApi({
      HOST: '0.0.0.0',
      RUN_WORKER: 'false',
      SHUTDOWN_GRACE_MS: '0',
    });
    try {
      const metricsPort = Number(new URL(spawned.metricsUrl).port);
      expect(await accepts('127.0.0.1', metricsPort)).toBe(true);
      if (outside) {
        expect(await accepts(outside, spawned.port)).toBe(true);
        expect(await accepts(outside, metricsPort)).toBe(false);
      } else {
        console.info('no non-loopback address on this machine: the outside check is skipped');
      }
    } finally {
      expect(await spawned.stop()).toBe(0);
    }
  });

  it('names METRICS_PORT in one line when its port is taken', async () => {
    const port = await freePort();
    const holder = createServer().listen(port, '127.0.0.1');
    try {
      await expect(spawnApi({ METRICS_PORT: String(port), RUN_WORKER: 'false' })).rejects.toThrow(
        new RegExp(
          `Port ${port} is already in use on 127\\.0\\.0\\.1: stop the other process or set METRICS_PORT`,
        ),
      );
    } finally {
      holder.close();
    }
  });
});

describe("the worker's metrics listener", () => {
  let redis: OwnRedis;
  let api: TestApi;
  let worker: WorkerProcess;

  beforeAll(async () => {
    // A Redis of its own: this worker must take only this file's delivery jobs.
    redis = await OwnRedis.start();
    api = await startApi({ REDIS_URL: redis.url, RUN_WORKER: 'false' });
    worker = await spawnWorker({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await worker?.kill('SIGTERM');
    await api?.close();
    await redis?.stop();
  });

  it('counts the deliveries it makes (the api, without a worker, counts none) and serves its probes', async () => {
    const user = await createTestUser(api);
    const attempts = (text: string) =>
      sample(text, 'code_delivery_attempts_total', { channel: 'email', outcome: 'sent' });
    const before = attempts(await scrapeAt(worker.metricsUrl));
    await sendEmail(api, user.auth, {}).expect(200);
    await readCode(api, user.email);
    await waitFor(
      async () => attempts(await scrapeAt(worker.metricsUrl)),
      (count) => count === before + 1,
      { what: "the worker's delivery to be counted" },
    );
    expect(attempts(await scrapeAt(api.metricsUrl))).toBe(0);

    const live = await fetch(`${worker.metricsUrl}/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${worker.metricsUrl}/health/ready`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as {
      status: string;
      details: Record<string, { status: string }>;
    };
    expect(body.status).toBe('ok');
    expect(Object.keys(body.details).sort()).toEqual(['database', 'instance', 'queue', 'redis']);
  });

  it('serves every metric the example alert rules name (between the api and the worker)', async () => {
    const served = new Set([
      ...seriesNames(await scrapeAt(api.metricsUrl)),
      ...seriesNames(await scrapeAt(worker.metricsUrl)),
    ]);
    // Series Prometheus makes itself for every target.
    const synthetic = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped']);
    const rules = parse(readFileSync(join(ROOT, 'docker/prometheus/alerts.yml'), 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
    };
    // The check itself finds names anywhere in an expression, and only metric names.
    expect(metricNamesOf('sum by (le) (rate(a_bucket{x="1"}[5m])) / on () b > 0 and up')).toEqual([
      'a_bucket',
      'b',
      'up',
    ]);
    const checked: string[] = [];
    for (const rule of rules.groups.flatMap((group) => group.rules)) {
      const names = metricNamesOf(rule.expr);
      expect({ alert: rule.alert, names: names.length > 0 }).toEqual({
        alert: rule.alert,
        names: true,
      });
      for (const name of names) {
        expect({
          alert: rule.alert,
          name,
          served: served.has(name) || synthetic.has(name),
        }).toEqual({
          alert: rule.alert,
          name,
          served: true,
        });
      }
      checked.push(rule.alert);
    }
    expect(checked.length).toBeGreaterThanOrEqual(8);
  });
});
