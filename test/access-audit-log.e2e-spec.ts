import { DataSource } from 'typeorm';
import { createKey, vastai, VASTAI_USER_AGENT } from '@test/support/access';
import {
  createTestUser,
  runManage,
  spawnApi,
  startApi,
  TestApi,
  TestUser,
} from '@test/support/api';
import { enableTotp } from '@test/support/tfa';
import { CONDITION_TIMEOUT_MS } from '@test/support/wait';

/** One day of charges, as the public client encodes the report's filter. */
const DAY_FILTER =
  'select_filters=%7B%22day%22%3A+%7B%22gte%22%3A+1767225600%2C+%22lte%22%3A+1767312000%7D%7D';

interface Entry {
  id: number;
  created_at: number;
  ip_address: string | null;
  api_key_id: number | null;
  session_id: number | null;
  method: string;
  api_route: string;
  route_name: string;
  args: Record<string, unknown>;
}

/** The audit log: writes and exports with a key or session, as `vastai show audit-logs` reads it. */
describe('audit log', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const logOf = async (user: TestUser, query = ''): Promise<Entry[]> => {
    const response = await vastai(api, user, 'get', `/api/v0/audit_logs/${query}`);
    expect(response.status).toBe(200);
    return response.body as Entry[];
  };
  const keyIdOf = async (user: TestUser) =>
    (
      await api.app
        .get(DataSource)
        .query(`SELECT id FROM api_keys WHERE user_id = $1 AND is_main`, [user.id])
    )[0].id as number;

  it('records each write made with a key, newest first, in the shape the public client prints', async () => {
    const user = await createTestUser(api);
    const created = await vastai(api, user, 'post', '/api/v0/endptjobs/', {
      client_id: 'me',
      endpoint_name: 'audited',
      max_workers: 8,
    });
    const id = created.body.result as number;
    await vastai(api, user, 'put', `/api/v0/endptjobs/${id}/`, { endptjob_id: id, max_workers: 5 });
    // Reads and refused writes change nothing and are not recorded.
    await vastai(api, user, 'get', '/api/v0/endptjobs/');
    expect(
      (await vastai(api, user, 'put', '/api/v0/endptjobs/999999/', { max_workers: 1 })).status,
    ).toBe(404);
    const log = await logOf(user);
    // The public client's table reads these five; the array is the whole body.
    expect(log.map((entry) => [entry.method, entry.api_route, entry.args])).toEqual([
      ['PUT', '/api/v0/endptjobs/{id}/', { endptjob_id: id, max_workers: 5, id: String(id) }],
      ['POST', '/api/v0/endptjobs/', { client_id: 'me', endpoint_name: 'audited', max_workers: 8 }],
    ]);
    expect(log[0]).toEqual({
      id: expect.any(Number),
      created_at: expect.any(Number),
      ip_address: '127.0.0.1',
      api_key_id: await keyIdOf(user),
      session_id: null,
      method: 'PUT',
      api_route: '/api/v0/endptjobs/{id}/',
      route_name: 'api.endptjobs.update',
      args: expect.any(Object),
    });
    expect(Math.abs(log[0].created_at - Date.now() / 1000)).toBeLessThan(300);
    expect(JSON.stringify(log)).not.toContain(user.apiKey);
  });

  it('records every export, and writes made with a session; never a password, code or key', async () => {
    const password = 'audit password 1';
    const user = await createTestUser(api, { password });
    const export_ = await api.http().get(`/api/v0/charges/export/?${DAY_FILTER}`).set(user.auth);
    expect(export_.status).toBe(200);
    const login = await api
      .http()
      .post('/api/v0/users/login/')
      .send({ email: user.email, password });
    const session = login.body.session_key as string;
    await vastai(api, { apiKey: session }, 'post', '/api/v0/tfa/email/', {});
    const child = await createKey(api, { apiKey: session }, { name: 'child' });
    await vastai(api, { apiKey: session }, 'put', '/api/v0/commands/reset_apikey/', {
      client_id: 'me',
    });
    const log = await logOf({ ...user, apiKey: child.key });
    expect(log.map((entry) => [entry.route_name, entry.session_id !== null])).toEqual([
      ['api.apikeys.reset', true],
      ['api.apikeys.create', true],
      ['api.tfa.email', true],
      ['api.charges.export', false],
    ]);
    expect(log[3].args).toEqual({
      select_filters: '{"day": {"gte": 1767225600, "lte": 1767312000}}',
    });
    const text = JSON.stringify(log);
    for (const secret of [password, session, child.key, user.apiKey])
      expect(text).not.toContain(secret);
  });

  it('removes codes and secrets from the arguments of the 2FA writes', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const log = await logOf(user);
    expect(log.map((entry) => [entry.route_name, entry.args])).toEqual([
      ['api.tfa.confirm_new', { tfa_method: 'totp', code: '[removed]', secret: '[removed]' }],
      ['api.tfa.totp_setup', {}],
      ['api.tfa.authorize_new_method_confirm', { secret: '[removed]', code: '[removed]' }],
      ['api.tfa.authorize_new_method', { tfa_method: 'email' }],
    ]);
    const text = JSON.stringify(log);
    for (const secret of [totp.secret, ...totp.backupCodes]) expect(text).not.toContain(secret);
  });

  it('pages by X-Next-Token (and Link), bound to the caller; a bad limit or token is 400', async () => {
    const user = await createTestUser(api);
    for (let n = 0; n < 5; n++)
      await vastai(api, user, 'post', '/api/v0/endptjobs/', { endpoint_name: `page-${n}` });
    const seen: string[] = [];
    let query = '?limit=2';
    for (;;) {
      const response = await vastai(api, user, 'get', `/api/v0/audit_logs/${query}`);
      seen.push(...(response.body as Entry[]).map((entry) => String(entry.args.endpoint_name)));
      const token = response.headers['x-next-token'] as string | undefined;
      if (!token) {
        expect(response.headers.link).toBeUndefined();
        break;
      }
      expect(response.headers.link).toBe(
        `</api/v0/audit_logs/?limit=2&after_token=${encodeURIComponent(token)}>; rel="next"`,
      );
      const stranger = await createTestUser(api);
      expect(
        (
          await vastai(
            api,
            stranger,
            'get',
            `/api/v0/audit_logs/?after_token=${encodeURIComponent(token)}`,
          )
        ).body,
      ).toEqual({ success: false, error: 'invalid_token', msg: 'Invalid pagination token' });
      query = `?limit=2&after_token=${encodeURIComponent(token)}`;
    }
    expect(seen).toEqual(['page-4', 'page-3', 'page-2', 'page-1', 'page-0']);
    expect((await vastai(api, user, 'get', '/api/v0/audit_logs/?limit=0')).status).toBe(400);
    expect((await vastai(api, user, 'get', '/api/v0/audit_logs/?after_token=forged')).status).toBe(
      400,
    );
  });

  it('manage audit:prune deletes what is older than the retention', async () => {
    const user = await createTestUser(api);
    await vastai(api, user, 'post', '/api/v0/endptjobs/', { endpoint_name: 'old' });
    await vastai(api, user, 'post', '/api/v0/endptjobs/', { endpoint_name: 'new' });
    await api.app.get(DataSource).query(
      `UPDATE audit_logs SET created_at = now() - interval '500 days'
          WHERE user_id = $1 AND args->>'endpoint_name' = 'old'`,
      [user.id],
    );
    const pruned = await runManage(['audit:prune']);
    expect(pruned.code).toBe(0);
    expect(pruned.json).toEqual({ pruned: expect.any(Number), before: expect.any(String) });
    expect((pruned.json as { pruned: number }).pruned).toBeGreaterThanOrEqual(1);
    expect((await logOf(user)).map((entry) => entry.args.endpoint_name)).toEqual(['new']);
    const refused = await runManage(['audit:prune', '--older-than-days', 'x']);
    expect(refused.code).toBe(1);
  });

  it(
    'an answered write is in the log even when the process dies right after answering',
    async () => {
      const user = await createTestUser(api);
      const replica = await spawnApi({ RUN_WORKER: 'false', LOG_LEVEL: 'warn' });
      try {
        const response = await fetch(`${replica.url}/api/v0/endptjobs/`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${user.apiKey}`,
            'Content-Type': 'application/json',
            'User-Agent': VASTAI_USER_AGENT,
          },
          body: JSON.stringify({ endpoint_name: 'before-the-crash' }),
        });
        expect(response.status).toBe(200);
      } finally {
        // Killed the moment the answer arrived: nothing after it runs.
        await replica.stop('SIGKILL');
      }
      expect((await logOf(user)).map((entry) => entry.args.endpoint_name)).toEqual([
        'before-the-crash',
      ]);
    },
    CONDITION_TIMEOUT_MS + 30_000,
  );
});
