import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  createTestUser,
  loadFixtures,
  spawnApi,
  SpawnedProcess,
  startApi,
  TestApi,
} from '@test/support/api';
import { OwnRedis } from '@test/support/own-redis';
import { passwordLogin } from '@test/support/tfa-requests';

/**
 * The credential cache (docs/decisions.md "Credential cache") against two api processes
 * sharing one database and one Redis: a change is seen at once by the process that made
 * it, and by the other replica as soon as the announcement arrives, well within the
 * cache's 5 s bound; sessions are never cached, so a logout holds everywhere at once.
 */
describe('credential cache across replicas', () => {
  /** Half the 5 s TTL: a change that only the TTL ended would miss this deadline. */
  const ANNOUNCED_WITHIN_MS = 2_500;

  let redis: OwnRedis;
  let api: TestApi;
  let replica: SpawnedProcess;
  const users: number[] = [];

  beforeAll(async () => {
    // A Redis of its own: the announcements and this file's worker stay private.
    redis = await OwnRedis.start();
    api = await startApi({ REDIS_URL: redis.url });
    replica = await spawnApi({ REDIS_URL: redis.url, RUN_WORKER: 'false', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    const dataSource = api.app.get(DataSource);
    await dataSource.query(`DELETE FROM api_keys WHERE user_id = ANY($1)`, [users]);
    await dataSource.query(`DELETE FROM sessions WHERE user_id = ANY($1)`, [users]);
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await replica.stop();
    await api.close();
    await redis.stop();
  });

  interface Answer {
    status: number;
    body: { id?: number; success?: boolean; error?: string; msg?: string };
  }

  async function whoIs(baseUrl: string, key: string): Promise<Answer> {
    const response = await fetch(`${baseUrl}/api/v0/users/current/`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  /** Asks until `accept` holds or the deadline passes; returns the last answer and when. */
  async function until(
    ask: () => Promise<Answer>,
    accept: (answer: Answer) => boolean,
    deadlineMs: number,
  ): Promise<{ answer: Answer; afterMs: number }> {
    const started = Date.now();
    for (;;) {
      const answer = await ask();
      const afterMs = Date.now() - started;
      if (accept(answer) || afterMs > deadlineMs) return { answer, afterMs };
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('an explicit key given to another user answers for the new owner: here at once, on the replica within the bound', async () => {
    const base = 700_000_000 + Math.floor(Math.random() * 1_000_000) * 2;
    const [first, second] = [base, base + 1];
    users.push(first, second);
    const key = `cache-test-${randomUUID()}`;
    const email = (id: number) => `cache-${id}-${randomUUID()}@example.test`;
    const secondEmail = email(second);
    await loadFixtures(api, {
      users: [
        { id: first, email: email(first), api_key: key },
        { id: second, email: secondEmail },
      ],
    });
    // Both processes now hold the key as the first user's.
    for (const url of [api.url, replica.url, api.url, replica.url]) {
      expect((await whoIs(url, key)).body.id).toBe(first);
    }

    await loadFixtures(api, { users: [{ id: second, email: secondEmail, api_key: key }] });

    expect((await whoIs(api.url, key)).body.id).toBe(second);
    const { answer, afterMs } = await until(
      () => whoIs(replica.url, key),
      (a) => a.body.id === second,
      ANNOUNCED_WITHIN_MS,
    );
    expect(answer.body.id).toBe(second);
    expect(afterMs).toBeLessThanOrEqual(ANNOUNCED_WITHIN_MS);
  });

  it('a session logged out on the replica is refused at once on both processes', async () => {
    const password = 'correct horse battery staple';
    const user = await createTestUser(api, { password });
    users.push(user.id);
    const login = await passwordLogin(api, { email: user.email, password });
    expect(login.status).toBe(200);
    const session = login.body.session_key as string;
    for (const url of [api.url, replica.url, api.url, replica.url]) {
      expect((await whoIs(url, session)).status).toBe(200);
    }

    const logout = await fetch(`${replica.url}/api/v0/users/logout/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${session}` },
    });
    expect(logout.status).toBe(200);

    const ended = {
      success: false,
      error: 'auth_error',
      msg: 'Session expired. Please log in again.',
    };
    for (const url of [replica.url, api.url]) {
      expect(await whoIs(url, session)).toEqual({ status: 404, body: ended });
    }
    // The user's API key, cached on both, is untouched by the logout.
    for (const url of [replica.url, api.url]) {
      expect((await whoIs(url, user.apiKey)).status).toBe(200);
    }
  });
});
