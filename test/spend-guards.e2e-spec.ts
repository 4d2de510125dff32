import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';

describe('spend-guards: POST /api/v0/spend-guards/', () => {
  let api: TestApi;
  let user: TestUser;

  const create = (body: unknown, caller: TestUser | null = user, on = api) => {
    const call = on.http().post('/api/v0/spend-guards/');
    if (caller) call.set(caller.auth);
    return call.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  const storedOf = (userId: number): Promise<Array<{ id: number; name: string }>> =>
    api.app
      .get(DataSource)
      .query(`SELECT id, name FROM spend_guards WHERE user_id = $1 ORDER BY id`, [userId]);

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api);
  });

  afterAll(() => api.close());

  it("creates the caller's budget and answers it", async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await create({ name: 'first' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      budget: { id: expect.any(Number), name: 'first', created_at: expect.any(Number) },
    });
    expect(response.body.budget.created_at).toBeGreaterThanOrEqual(before);
    expect(await storedOf(user.id)).toEqual([{ id: response.body.budget.id, name: 'first' }]);
  });

  it('refuses a name the domain refuses, with its code, storing nothing', async () => {
    const owner = await createTestUser(api);
    const response = await create({ name: ' ' }, owner);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'budget_name_invalid',
      msg: 'name must not be empty',
    });
    expect(await storedOf(owner.id)).toEqual([]);
  });

  it('refuses a body of another shape with bad_request', async () => {
    for (const body of [{}, { name: 5 }, { name: 'x', extra: true }, []]) {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: 'bad_request' });
    }
  });

  it('needs a credential', async () => {
    const response = await create({ name: 'first' }, null);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'This action requires login.',
    });
  });

  describe('with rate limits on', () => {
    let limited: TestApi;

    beforeAll(async () => {
      limited = await startApi({ RATE_LIMITS: 'on', RATE_LIMIT_SPEND_GUARDS_CREATE: '600' });
    });

    afterAll(() => limited.close());

    it('answers a second create within RATE_LIMIT_SPEND_GUARDS_CREATE with 429, creating nothing', async () => {
      const owner = await createTestUser(limited);
      expect((await create({ name: 'first' }, owner, limited)).status).toBe(200);
      const second = await create({ name: 'second' }, owner, limited);
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=600.0' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      expect((await storedOf(owner.id)).map((row) => row.name)).toEqual(['first']);
    });
  });
});
