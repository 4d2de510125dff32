import {
  createTestUser,
  spawnApi,
  SpawnedProcess,
  startApi,
  TestApi,
  TestUser,
} from '@test/support/api';

/**
 * The per-endpoint minimum interval holds across api processes: it lives in the shared
 * Redis, so a request one process just served is refused by the other.
 */
describe('rate limits across two api processes sharing one Redis', () => {
  let first: SpawnedProcess;
  let second: SpawnedProcess;
  let setup: TestApi;
  let user: TestUser;

  beforeAll(async () => {
    [first, second] = await Promise.all([
      spawnApi({ RATE_LIMITS: 'on' }),
      spawnApi({ RATE_LIMITS: 'on' }),
    ]);
    setup = await startApi();
    user = await createTestUser(setup);
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop(), setup?.close()]);
  });

  const unlist = (api: SpawnedProcess, auth: Record<string, string>) =>
    fetch(`${api.url}/api/v0/volumes/unlist`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 987654 }),
    });

  it('refuses on the second process the request the first one just served', async () => {
    const served = await unlist(first, user.auth);
    expect(served.status).not.toBe(429);
    const refused = await unlist(second, user.auth);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      detail: 'API requests too frequent endpoint threshold=5.0',
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
  });

  it('limits each user separately', async () => {
    const other = await createTestUser(setup);
    await unlist(first, user.auth);
    expect((await unlist(second, other.auth)).status).not.toBe(429);
  });

  it('counts the refusals in /metrics', async () => {
    const third = await createTestUser(setup);
    await unlist(first, third.auth);
    expect((await unlist(first, third.auth)).status).toBe(429);
    const metrics = await (await fetch(`${first.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/rate_limit_refusals_total\{bucket="volumes_unlist"\} [1-9]/);
  });
});
