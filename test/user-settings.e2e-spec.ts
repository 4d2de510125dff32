import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { vastai } from '@test/support/access';

/**
 * The public client's low-balance setting (docs/spend-guards.md "The low-balance
 * setting"): `vastai set user --file f.json` sends the file's JSON object to
 * PUT /api/v0/users/; `vastai show user` reads it back from GET /api/v0/users/current.
 */
describe('PUT /api/v0/users/ (set user)', () => {
  let api: TestApi;
  let user: TestUser;

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api);
  });

  afterAll(async () => {
    await api.app.get(DataSource).query(`DELETE FROM users WHERE id = $1`, [user.id]);
    await api.close();
  });

  const current = async () => (await vastai(api, user, 'get', '/api/v0/users/current')).body;

  it('shows the setting, off at 0 until set', async () => {
    expect(await current()).toMatchObject({
      balance_threshold: 0,
      balance_threshold_enabled: false,
    });
  });

  it('keeps balance_threshold and balance_threshold_enabled, given alone or together', async () => {
    const set = await vastai(api, user, 'put', '/api/v0/users/', {
      balance_threshold: 25.5,
      balance_threshold_enabled: true,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      success: true,
      user: { id: user.id, balance_threshold: 25.5, balance_threshold_enabled: true },
    });
    expect(await current()).toMatchObject({
      balance_threshold: 25.5,
      balance_threshold_enabled: true,
    });
    await vastai(api, user, 'put', '/api/v0/users/', { balance_threshold_enabled: false });
    expect(await current()).toMatchObject({
      balance_threshold: 25.5,
      balance_threshold_enabled: false,
    });
  });

  it('refuses the keys it does not keep by name, and bad values, changing nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'nothing to change: give balance_threshold or balance_threshold_enabled'],
      [{ balance_threshold: -1 }, 'balance_threshold must be from 0 to 1000000000'],
      [{ balance_threshold: 'ten' }, 'balance_threshold must be a number'],
      [{ balance_threshold: 1.005 }, 'balance_threshold must have at most 2 decimals'],
      [{ balance_threshold_enabled: 1 }, 'balance_threshold_enabled must be a boolean'],
      [
        { balance_threshold: 3, ssh_key: 'ssh-ed25519 AAAA', billaddress_city: 'Paris' },
        'not supported by this service: billaddress_city, ssh_key',
      ],
      [
        { autobill_threshold: 5, phone_number: '+15555550100' },
        'not supported by this service: autobill_threshold, phone_number',
      ],
      [{ colour: 'red' }, 'unknown keys: colour'],
      [[1], 'Request body must be a JSON object'],
    ];
    for (const [body, msg] of cases) {
      const response = await vastai(api, user, 'put', '/api/v0/users/', body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 400,
        response: { success: false, error: 'bad_request', msg },
      });
    }
    expect(await current()).toMatchObject({ balance_threshold: 25.5 });
  });

  it('needs a credential', async () => {
    const response = await api
      .http()
      .put('/api/v0/users/')
      .set('Content-Type', 'application/json')
      .send('{"balance_threshold": 1}');
    expect(response.status).toBe(403);
  });
});
