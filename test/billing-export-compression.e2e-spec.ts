import { request as httpRequest, IncomingMessage } from 'node:http';
import { connect, Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { createTestUser, spawnApi, startApi, TestApi, TestUser } from '@test/support/api';
import { cleanBilling, exportCuts, seedBulkCharges } from '@test/support/billing';
import { waitFor } from '@test/support/wait';

/**
 * Response compression (docs/operations.md "Compression") over real HTTP: a 100,080-line
 * export streamed with gzip (and br) decompresses to the very bytes of the uncompressed
 * export, arrives in many flushed chunks rather than one buffered blob, and JSON answers
 * are compressed above COMPRESSION_MIN_BYTES only; a reader of a compressed export that
 * takes nothing is cut as an uncompressed one is. Contract ids 771000-771999 belong to
 * this file.
 */
const DAY = 86_400;
const FIRST_DAY = Date.UTC(2026, 0, 5) / 1000;
const IDS = [771_000, 771_999] as const;
const CONTRACTS = 556; // x 180 lines = 100,080 lines

interface Fetched {
  response: IncomingMessage;
  body: Buffer;
  chunks: number;
}

describe('compressed exports and JSON responses', () => {
  let api: TestApi;
  let db: DataSource;
  let user: TestUser;

  const clean = () => cleanBilling(db, IDS, user ? [user.id] : []);

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    user = await createTestUser(api);
    await clean();
    await seedBulkCharges(db, {
      userId: user.id,
      firstId: IDS[0],
      contracts: CONTRACTS,
      firstDay: FIRST_DAY,
      label: 'bulk, "quoted"',
    });
  });

  afterAll(async () => {
    await clean();
    await api?.close();
  });

  /** A raw GET (no client-side decompression), the body's bytes as they came. */
  function fetchRaw(path: string, encoding: string | null): Promise<Fetched> {
    const url = new URL(path, api.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          headers: {
            Authorization: user.auth.Authorization,
            ...(encoding ? { 'Accept-Encoding': encoding } : {}),
          },
        },
        (response) => {
          const parts: Buffer[] = [];
          response.on('data', (chunk: Buffer) => parts.push(chunk));
          response.on('end', () =>
            resolve({ response, body: Buffer.concat(parts), chunks: parts.length }),
          );
          response.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const filters = encodeURIComponent(
    JSON.stringify({ day: { gte: FIRST_DAY, lte: FIRST_DAY + 89 * DAY } }),
  );

  it('gzip and br round trips of a 100k-line export give the uncompressed bytes', async () => {
    const path = `/api/v0/charges/export/?select_filters=${filters}`;
    const plain = await fetchRaw(path, null);
    expect(plain.response.statusCode).toBe(200);
    expect(plain.response.headers['content-encoding']).toBeUndefined();
    expect(plain.response.headers['x-charge-lines']).toBe(String(CONTRACTS * 180));
    const lines = plain.body.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(CONTRACTS * 180 + 2); // header, lines, '' after the last CRLF

    const gzip = await fetchRaw(path, 'gzip');
    expect(gzip.response.statusCode).toBe(200);
    expect(gzip.response.headers['content-encoding']).toBe('gzip');
    expect(gzip.response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gzip.response.headers['x-charge-lines']).toBe(String(CONTRACTS * 180));
    expect(gzip.body.length).toBeLessThan(plain.body.length / 5);
    // Flushed as it streams: many chunks, not one blob at the end.
    expect(gzip.chunks).toBeGreaterThan(10);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

    const br = await fetchRaw(path, 'br');
    expect(br.response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it('logs no warning for a compressed export (the built api as deployed)', async () => {
    // Express, the middlewares and the pipeline watch the response's 'close': once past
    // Node's bound of 10, which printed a false "possible memory leak" per export.
    const spawned = await spawnApi({ RUN_WORKER: 'false', LOG_LEVEL: 'warn' });
    try {
      const response = await fetch(
        `${spawned.url}/api/v0/charges/export/?select_filters=${filters}`,
        {
          headers: { Authorization: user.auth.Authorization, 'Accept-Encoding': 'gzip' },
        },
      );
      expect(response.status).toBe(200);
      expect((await response.text()).length).toBeGreaterThan(0);
    } finally {
      await spawned.stop();
    }
    // Node's process warnings: `(node:PID) NameWarning: ...`.
    expect(spawned.output.filter((line) => /\(node:\d+\) \w*Warning: /.test(line))).toEqual([]);
  });

  it('compresses a JSON answer above COMPRESSION_MIN_BYTES, not a small one', async () => {
    const page = await fetchRaw(`/api/v0/charges/?select_filters=${filters}&limit=200`, 'gzip');
    expect(page.response.statusCode).toBe(200);
    expect(page.response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(page.body).toString('utf8')).count).toBe(200);

    const small = await fetchRaw(`/api/v0/charges/?select_filters=${filters}&limit=1`, 'gzip');
    expect(small.body.length).toBeLessThan(1024);
    expect(small.response.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8')).count).toBe(1);
  });

  it('answers JSON without an ETag, compressed or not (no client asks with If-None-Match)', async () => {
    const page = await fetchRaw(`/api/v0/charges/?select_filters=${filters}&limit=200`, 'gzip');
    const small = await fetchRaw(`/api/v0/charges/?select_filters=${filters}&limit=1`, 'gzip');
    expect([page.response.statusCode, small.response.statusCode]).toEqual([200, 200]);
    expect(page.response.headers.etag).toBeUndefined();
    expect(small.response.headers.etag).toBeUndefined();
  });
});

describe('a stalled compressed export', () => {
  const STALL_MS = 3_000;
  /** 120 contracts x 180 lines of ~1 KB that gzip cannot shrink much: megabytes compressed. */
  const NOISY = { firstId: 771_600, contracts: 120 };
  let api: TestApi;
  let db: DataSource;
  let user: TestUser;
  const serverSockets = new Map<number, Socket>();

  beforeAll(async () => {
    api = await startApi({ EXPORT_STALL_TIMEOUT_MS: String(STALL_MS) });
    api.app
      .getHttpServer()
      .on('connection', (socket: Socket) => serverSockets.set(socket.remotePort!, socket));
    db = api.app.get(DataSource);
    user = await createTestUser(api);
    await cleanBilling(db, [NOISY.firstId, NOISY.firstId + NOISY.contracts - 1], [user.id]);
    await seedBulkCharges(db, {
      userId: user.id,
      ...NOISY,
      firstDay: FIRST_DAY,
      label: 'noisy',
      noisyUnits: 28,
    });
  });

  afterAll(async () => {
    await cleanBilling(db, [NOISY.firstId, NOISY.firstId + NOISY.contracts - 1], [user.id]);
    await api?.close();
  });

  it('is cut within its bound with gzip too: the compressor hides no reader that takes nothing', async () => {
    const filters = encodeURIComponent(
      JSON.stringify({ day: { gte: FIRST_DAY, lte: FIRST_DAY + 89 * DAY } }),
    );
    // A raw socket that asks for gzip, reads the headers, then nothing more.
    const socket = connect(Number(new URL(api.url).port), '127.0.0.1');
    const received: Buffer[] = [];
    const headersAt = await new Promise<number>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (!Buffer.concat(received).includes('\r\n\r\n')) return;
        socket.pause();
        socket.removeAllListeners('data');
        socket.removeListener('error', reject);
        socket.on('error', () => undefined);
        resolve(Date.now());
      });
      socket.write(
        `GET /api/v0/charges/export/?select_filters=${filters} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Authorization: ${user.auth.Authorization}\r\nAccept-Encoding: gzip\r\n\r\n`,
      );
    });
    const head = Buffer.concat(received).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/\r\ncontent-encoding: gzip\r\n/i);

    const cutsBefore = await exportCuts(api, 'stalled');
    const serverSide = serverSockets.get(socket.localPort!)!;
    await waitFor(
      () => serverSide.destroyed,
      (destroyed) => destroyed,
      { what: 'the stalled compressed export to be cut', intervalMs: 50 },
    );
    const cutAfterMs = Date.now() - headersAt;
    console.info(
      `stalled gzip export (EXPORT_STALL_TIMEOUT_MS=${STALL_MS}): cut after ${cutAfterMs} ms`,
    );
    // Never before the stall bound, and within it plus the time to fill the buffers.
    expect(cutAfterMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(cutAfterMs).toBeLessThan(STALL_MS + 5_000);

    // What arrived is a cut stream: no client can take it for a whole file.
    const body = await new Promise<Buffer>((resolve) => {
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.once('close', () => resolve(Buffer.concat(received)));
      socket.resume();
    });
    expect(body.subarray(-5).toString()).not.toBe('0\r\n\r\n');
    expect((await exportCuts(api, 'stalled')) - cutsBefore).toBe(1);
  });
});
