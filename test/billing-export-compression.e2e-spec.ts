import { request as httpRequest, IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { cleanBilling, seedBulkCharges } from '@test/support/billing';

/**
 * Response compression (docs/operations.md "Compression") over real HTTP: a 100,080-line
 * export streamed with gzip (and br) decompresses to the very bytes of the uncompressed
 * export, arrives in many flushed chunks rather than one buffered blob, and JSON answers
 * are compressed above COMPRESSION_MIN_BYTES only. Contract ids 771000-771999 belong to
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
});
