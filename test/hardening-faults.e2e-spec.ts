import { Client } from 'pg';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { OwnRedis } from '@test/support/own-redis';
import { TEST_DATABASE_URL } from '@test/support/test-env';

async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  attempts = 100,
): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < attempts; i += 1) {
    last = await probe();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last as T;
}

describe('faults: dependencies going away and coming back', () => {
  describe('Redis stopped mid-run', () => {
    let redis: OwnRedis;
    let api: TestApi;

    beforeAll(async () => {
      redis = await OwnRedis.start();
      api = await startApi({ REDIS_URL: redis.url, RATE_LIMITS: 'on' });
    });

    afterAll(async () => {
      await api.close();
      await redis.stop();
    });

    it('turns readiness to 503 while Redis is down and recovers without a restart', async () => {
      expect((await api.http().get('/health/ready')).status).toBe(200);
      await redis.stop();
      const down = await eventually(
        () => api.http().get('/health/ready'),
        (response) => response.status === 503,
      );
      expect(down.status).toBe(503);
      expect(down.body.error.redis.status).toBe('down');
      await redis.start();
      const up = await eventually(
        () => api.http().get('/health/ready'),
        (response) => response.status === 200,
      );
      expect(up.status).toBe(200);
    });
  });

  describe('PostgreSQL connections killed', () => {
    const applicationName = `fault-test-${process.pid}-${Date.now()}`;
    let api: TestApi;
    let user: TestUser;

    beforeAll(async () => {
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('application_name', applicationName);
      api = await startApi({ DATABASE_URL: url.toString() });
      user = await createTestUser(api);
    });

    afterAll(() => api.close());

    it('fails the affected requests cleanly (503 JSON, no stack) and serves later ones', async () => {
      await api.http().get('/api/v0/users/current').set(user.auth).expect(200);
      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      const kill = () =>
        admin.query(
          `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = $1`,
          [applicationName],
        );
      const responses: Array<{ status: number; type: string; body: unknown }> = [];
      const killed: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        // fetch starts at once, so the kills land while these requests are being served.
        const inFlight = Array.from({ length: 30 }, () =>
          fetch(`${api.url}/api/v0/users/current`, { headers: user.auth }).then(
            async (response) => ({
              status: response.status,
              type: response.headers.get('content-type') ?? '',
              body: await response.json(),
            }),
          ),
        );
        killed.push(
          ...(await Promise.all([kill(), kill()])).map((result) => Number(result.rows[0].n)),
        );
        responses.push(...(await Promise.all(inFlight)));
      }
      await admin.end();
      expect(killed.some((n) => n > 0)).toBe(true);
      for (const response of responses) {
        expect(response.type).toMatch(/application\/json/);
        expect([200, 503]).toContain(response.status);
        if (response.status === 503) {
          expect(response.body).toEqual({
            success: false,
            error: 'service_unavailable',
            msg: 'A backing service is unavailable; retry shortly.',
          });
        }
      }
      const after = await eventually(
        () => api.http().get('/api/v0/users/current').set(user.auth),
        (response) => response.status === 200,
        20,
      );
      expect(after.status).toBe(200);
      expect(after.body.id).toBe(user.id);
    });
  });
});
