import { connect, Socket } from 'node:net';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { ExportSlots } from '@app/billing/testing';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { exportCuts, seedBulkCharges } from '@test/support/billing';
import { waitFor } from '@test/support/wait';

// This file's connections carry a name of their own (node-pg reads PGAPPNAME), so the
// export backends it counts are its own, not those of a file running beside it.
process.env.PGAPPNAME = 'export-limits-test';
/**
 * The export's budget and bounds (docs/billing.md "Export limits") against clients that
 * stop reading: each export holds a pooled connection while it streams, so exports get a
 * small budget of their own, a client that takes nothing for EXPORT_STALL_TIMEOUT_MS is cut,
 * and so is an export past EXPORT_MAX_DURATION_MS. Contract ids 740000-749999 belong to this
 * file.
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 2, 2) / 1000;
const IDS = [740_000, 749_999];
/** Per user: 200 contracts x 90 days x 2 lines of ~430 bytes, ~15 MB: more than sockets buffer. */
const CONTRACTS_PER_USER = 200;
const STALL_MS = 3_000;
const QUERY = `select_filters=${encodeURIComponent(JSON.stringify({ day: { gte: D0, lte: D0 + 89 * DAY } }))}`;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  socket: Socket;
  /** Whatever of the body arrived with the headers. */
  head: Buffer;
  /** When the request was written, and when its headers came back. */
  sentAt: number;
  headersAt: number;
}

/** GET over a raw socket: the status and headers, then nothing more is read. */
function rawGet(port: number, path: string, user: TestUser): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let sentAt = 0;
    let received = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.pause();
      socket.removeAllListeners('data');
      socket.removeListener('error', reject);
      socket.on('error', () => undefined);
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        socket,
        head: received.subarray(end + 4),
        sentAt,
        headersAt: Date.now(),
      });
    });
    sentAt = Date.now();
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${user.auth.Authorization}\r\n\r\n`,
    );
  });
}

/** Reads the rest of a raw response until the server ends the connection. */
function readToEnd(response: RawResponse): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks = [response.head];
    const done = () => resolve(Buffer.concat(chunks));
    response.socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.socket.once('close', done);
    response.socket.resume();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

describe('charges export limits', () => {
  let api: TestApi;
  let db: DataSource;
  let port: number;
  const bulk: TestUser[] = [];
  let other: TestUser;
  /** The server's side of every connection, by the client's port. */
  const serverSockets = new Map<number, Socket>();

  const pool = () => (db.driver as PostgresDriver).master as Pool;
  const checkedOut = () => pool().totalCount - pool().idleCount;
  const exportBackends = async () =>
    (await db.query(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND query LIKE '%charges-export%' AND state <> 'idle'
          AND application_name = current_setting('application_name')`,
    )) as { pid: number }[];
  const cuts = (reason: string) => exportCuts(api, reason);

  beforeAll(async () => {
    // No security-notice sweep may take a pooled connection while the pool is counted.
    api = await startApi({
      EXPORT_STALL_TIMEOUT_MS: String(STALL_MS),
      TFA_NOTICE_RETRY_SECONDS: '3600',
    });
    db = api.app.get(DataSource);
    port = Number(new URL(api.url).port);
    api.app
      .getHttpServer()
      .on('connection', (socket: Socket) => serverSockets.set(socket.remotePort!, socket));
    await db.query(`DELETE FROM billing_contracts WHERE id BETWEEN $1 AND $2`, IDS);
    for (let i = 0; i < 5; i++) {
      bulk.push(await createTestUser(api));
      await seedBulkCharges(db, {
        userId: bulk[i].id,
        firstId: IDS[0] + i * 1_000,
        contracts: CONTRACTS_PER_USER,
        firstDay: D0,
        label: 'x'.repeat(380),
      });
    }
    other = await createTestUser(api);
  });

  afterAll(async () => {
    await db.query(`DELETE FROM billing_contracts WHERE id BETWEEN $1 AND $2`, IDS);
    for (const table of ['billing_statement_days', 'billing_report_days'])
      await db.query(`DELETE FROM ${table} WHERE owner_key = ANY($1)`, [
        bulk.map((user) => user.id),
      ]);
    await api.close();
  });

  it('10 stalled exports of five users: others get 200 with p99 < 1 s, each export is cut within its bound, the pool is idle after', async () => {
    await waitFor(checkedOut, (count) => count === 0, { what: 'an idle pool' });
    const stalledBefore = await cuts('stalled');
    let probing = true;
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const probe = async () => {
      const paths = ['/api/v0/endptjobs/', '/api/v0/tfa/status/', '/health/ready'];
      for (let i = 0; probing; i++) {
        const path = paths[i % paths.length];
        const started = Date.now();
        const response = await api.http().get(path).set(other.auth);
        latencies.push(Date.now() - started);
        statuses[`${path} ${response.status}`] = (statuses[`${path} ${response.status}`] ?? 0) + 1;
      }
    };
    const probes = [probe(), probe()];

    const refusals: RawResponse[] = [];
    const stalled: { response: RawResponse; cutAfterMs: number; body: Buffer }[] = [];
    /** One client: asks until admitted (after each Retry-After), then stops reading. */
    const client = async (user: TestUser) => {
      for (;;) {
        const response = await rawGet(port, `/api/v0/charges/export/?${QUERY}`, user);
        if (response.status !== 200) {
          refusals.push(response);
          response.socket.destroy();
          await new Promise((resolve) =>
            setTimeout(resolve, Number(response.headers['retry-after']) * 1000),
          );
          continue;
        }
        const serverSide = serverSockets.get(response.socket.localPort!)!;
        await waitFor(
          () => serverSide.destroyed,
          (destroyed) => destroyed,
          { what: 'the stalled export to be cut', intervalMs: 50 },
        );
        const cutAfterMs = Date.now() - response.headersAt;
        stalled.push({ response, cutAfterMs, body: await readToEnd(response) });
        return;
      }
    };
    try {
      await Promise.all(bulk.flatMap((user) => [client(user), client(user)]));
    } finally {
      probing = false;
      await Promise.all(probes);
    }

    const cutTimes = stalled.map(({ cutAfterMs }) => cutAfterMs);
    console.info(
      `10 stalled exports (EXPORT_STALL_TIMEOUT_MS=${STALL_MS}): cut ${Math.min(...cutTimes)} to ` +
        `${Math.max(...cutTimes)} ms after their headers; ${refusals.length} refusals ` +
        `(${refusals.filter((r) => r.status === 429).length} x 429, ` +
        `${refusals.filter((r) => r.status === 503).length} x 503); other user: ${latencies.length} ` +
        `requests, ${JSON.stringify(statuses)}, p50 ${percentile(latencies, 50)} ms, ` +
        `p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`,
    );
    // Every export was admitted in its turn, stalled, and was cut: never sooner than the
    // stall timeout (the client read nothing after the headers), and within the bound (the
    // time to fill the socket buffers, the timeout, and a tenth of it to notice).
    expect(stalled).toHaveLength(10);
    for (const { cutAfterMs } of stalled) {
      expect(cutAfterMs).toBeGreaterThanOrEqual(STALL_MS);
      expect(cutAfterMs).toBeLessThan(STALL_MS + 5_000);
    }
    // A cut body ends without its last chunk: no client takes it for a whole file.
    for (const { body } of stalled) {
      expect(body.length).toBeLessThan(10_000_000);
      expect(body.subarray(-5).toString()).not.toBe('0\r\n\r\n');
    }
    expect((await cuts('stalled')) - stalledBefore).toBe(10);

    // Refused while the budget was taken: a user's second export (429) and the server's
    // third (503), each with Retry-After.
    const byStatus = new Set(refusals.map((refusal) => refusal.status));
    expect([...byStatus].sort()).toEqual([429, 503]);
    for (const refusal of refusals) expect(refusal.headers['retry-after']).toBe('1');

    // Nobody else noticed.
    expect(Object.keys(statuses).filter((key) => !key.endsWith(' 200'))).toEqual([]);
    expect(latencies.length).toBeGreaterThan(20);
    expect(percentile(latencies, 99)).toBeLessThan(1_000);

    await waitFor(checkedOut, (count) => count === 0, { what: 'the pool back to idle' });
    expect(await exportBackends()).toEqual([]);
    expect(api.app.get(ExportSlots).inFlight()).toBe(0);
  });

  it('answers the budget refusals in the house shapes', async () => {
    const held = await rawGet(port, `/api/v0/charges/export/?${QUERY}`, bulk[0]);
    try {
      expect(held.status).toBe(200);
      const second = await api.http().get(`/api/v0/charges/export/?${QUERY}`).set(bulk[0].auth);
      expect(second.status).toBe(429);
      expect(second.headers['retry-after']).toBe('1');
      expect(second.body).toEqual({
        detail:
          'Too many concurrent requests to this endpoint: at most 1 at a time per user; retry shortly',
      });
      const alsoHeld = await rawGet(port, `/api/v0/charges/export/?${QUERY}`, bulk[1]);
      try {
        const third = await api.http().get(`/api/v0/charges/export/?${QUERY}`).set(bulk[2].auth);
        expect(third.status).toBe(503);
        expect(third.headers['retry-after']).toBe('1');
        expect(third.body).toEqual({
          success: false,
          error: 'service_unavailable',
          msg: 'This server is streaming as many exports as it allows (2); retry shortly.',
        });
      } finally {
        alsoHeld.socket.destroy();
      }
    } finally {
      held.socket.destroy();
    }
    await waitFor(
      () => api.app.get(ExportSlots).inFlight(),
      (n) => n === 0,
      {
        what: 'the slots to be free',
      },
    );
  });

  describe('with a wall-clock bound and rate limits on', () => {
    let bounded: TestApi;
    const boundedSockets = new Map<number, Socket>();

    beforeAll(async () => {
      bounded = await startApi({
        RATE_LIMITS: 'on',
        EXPORT_MAX_DURATION_MS: '1500',
        EXPORT_STALL_TIMEOUT_MS: '60000',
        TFA_NOTICE_RETRY_SECONDS: '3600',
      });
      bounded.app
        .getHttpServer()
        .on('connection', (socket: Socket) => boundedSockets.set(socket.remotePort!, socket));
    });
    afterAll(() => bounded.close());

    it('cuts an export still streaming at EXPORT_MAX_DURATION_MS, however steadily it is read', async () => {
      const before = await exportCuts(bounded, 'deadline');
      const response = await rawGet(
        Number(new URL(bounded.url).port),
        `/api/v0/charges/export/?${QUERY}`,
        bulk[3],
      );
      expect(response.status).toBe(200);
      const serverSide = boundedSockets.get(response.socket.localPort!)!;
      // A slow but steady reader: at most 8 KB every 20 ms (~0.4 MB/s), never a stall. What
      // the export writes is what it reads plus what the sockets buffer (~4 MB measured at the
      // cut); slow enough that the 15 MB export cannot end first even when a loaded machine
      // runs the cut's timer seconds late.
      const chunks: Buffer[] = [response.head];
      const reader = setInterval(() => {
        const chunk = response.socket.read(8_192) as Buffer | null;
        if (chunk) chunks.push(chunk);
      }, 20);
      try {
        await waitFor(
          () => serverSide.destroyed,
          (destroyed) => destroyed,
          { what: 'the export to be cut at its bound', intervalMs: 50 },
        );
      } finally {
        clearInterval(reader);
      }
      // The bound runs from the moment the server starts streaming, which lies between the
      // request and its headers (the cursor's first rows come before the headers go out):
      // never cut before it, by the request's clock; within it, by the headers' clock.
      const cutAt = Date.now();
      expect(cutAt - response.sentAt).toBeGreaterThanOrEqual(1_500);
      expect(cutAt - response.headersAt).toBeLessThan(1_500 + 5_000);
      chunks.push(await readToEnd({ ...response, head: Buffer.alloc(0) }));
      const body = Buffer.concat(chunks);
      console.info(
        `wall-clock cut ${cutAt - response.headersAt} ms after the headers; ${body.length} bytes of ~15 MB delivered`,
      );
      expect(body.subarray(-5).toString()).not.toBe('0\r\n\r\n');
      expect((await exportCuts(bounded, 'deadline')) - before).toBe(1);
    });

    it('a malformed export request costs no export window; a served one does', async () => {
      const user = await createTestUser(bounded);
      const typo = await bounded
        .http()
        .get(`/api/v0/charges/export/?${QUERY}&format=xlsx`)
        .set(user.auth);
      expect(typo.status).toBe(400);
      expect(typo.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: "format must be 'csv' or 'ndjson'",
      });
      const noRange = await bounded.http().get(`/api/v0/charges/export/`).set(user.auth);
      expect(noRange.status).toBe(400);
      const served = await bounded.http().get(`/api/v0/charges/export/?${QUERY}`).set(user.auth);
      expect(served.status).toBe(200);
      const limited = await bounded.http().get(`/api/v0/charges/export/?${QUERY}`).set(user.auth);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ detail: 'API requests too frequent endpoint threshold=10.0' });
    });
  });
});
