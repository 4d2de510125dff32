import { noticesSettled, noticesTo, storedEvents } from '@test/support/account-security';
import { categories, createKey, pythonJson, vastai, VASTAI_USER_AGENT } from '@test/support/access';
import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { backupCodeSession, enableTotp } from '@test/support/tfa';
import { passwordLogin } from '@test/support/tfa-requests';
import { waitFor } from '@test/support/wait';

/** One day of charges, as the public client encodes the report's filter. */
const DAY_FILTER =
  'select_filters=%7B%22day%22%3A+%7B%22gte%22%3A+1767225600%2C+%22lte%22%3A+1767312000%7D%7D';
/** The permission file of a CI key limited to one endpoint group (docs/access.md). */
const ciKeyFor = (group: number) => ({
  api: {
    misc: {
      'api.endptjobs.update': { constraints: { id: { eq: group } } },
      'api.endptjobs.delete': { constraints: { id: { eq: group } } },
    },
  },
});

describe('self-service API keys, as the public client drives them', () => {
  let api: TestApi;
  let ada: TestUser;

  const whoIs = (key: string) =>
    api.http().get('/api/v0/users/current/').set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    api = await startApi();
    ada = await createTestUser(api, { password: 'correct horse battery' });
  });
  afterAll(() => api.close());

  describe('vastai create / show / delete / reset api-key', () => {
    it('`create api-key --name --permission_file --key_params`: the key once, the record with it', async () => {
      // key_params arrives as text: the client passes --key_params through unparsed.
      const response = await vastai(api, ada, 'post', '/api/v0/auth/apikeys/', {
        name: 'accountant',
        permissions: categories('billing_read'),
        key_params: '{"ip_whitelist": ["127.0.0.1", "10.0.0.0/8"]}',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        key: expect.stringMatching(/^gmk_[0-9A-Za-z]{43}$/),
        id: expect.any(Number),
        name: 'accountant',
        prefix: response.body.key.slice(0, 8),
        permissions: { api: { billing_read: {} } },
        key_params: { ip_whitelist: ['127.0.0.1', '10.0.0.0/8'] },
        team_id: null,
        main: false,
        created_at: expect.any(Number),
        last_used: null,
        expires_at: null,
      });
      const key = response.body.key as string;
      expect((await whoIs(key)).status).toBe(403);
      expect(
        (
          await api
            .http()
            .get(`/api/v0/charges/?${DAY_FILTER}`)
            .set('Authorization', `Bearer ${key}`)
        ).status,
      ).toBe(200);

      // `show api-keys` and `show api-key ID`: never the key.
      const list = await vastai(api, ada, 'get', '/api/v0/auth/apikeys/');
      expect(list.status).toBe(200);
      expect(list.body.apikeys.map((k: { name: string | null }) => k.name)).toEqual([
        null,
        'accountant',
      ]);
      expect(list.body.apikeys[0]).toMatchObject({ main: true, permissions: null });
      const shown = await vastai(api, ada, 'get', `/api/v0/auth/apikeys/${response.body.id}/`);
      expect(shown.status).toBe(200);
      const { key: _omitted, ...record } = response.body;
      expect(shown.body).toEqual(record);
      for (const text of [JSON.stringify(list.body), JSON.stringify(shown.body)]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(ada.apiKey);
      }
    });

    it('`delete api-key ID`: the key stops at once; the main key cannot be deleted', async () => {
      const doomed = await createKey(api, ada, { name: 'doomed' });
      expect((await whoIs(doomed.key)).status).toBe(200);
      const response = await vastai(api, ada, 'delete', `/api/v0/auth/apikeys/${doomed.id}/`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, msg: `API key ${doomed.id} deleted.` });
      expect((await whoIs(doomed.key)).body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Invalid user key',
      });
      const again = await vastai(api, ada, 'delete', `/api/v0/auth/apikeys/${doomed.id}/`);
      expect(again.status).toBe(404);
      const main = (await vastai(api, ada, 'get', '/api/v0/auth/apikeys/')).body.apikeys.find(
        (k: { main: boolean }) => k.main,
      );
      const refused = await vastai(api, ada, 'delete', `/api/v0/auth/apikeys/${main.id}/`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('bad_request');
      expect((await vastai(api, ada, 'delete', '/api/v0/auth/apikeys/abc/')).status).toBe(400);
    });

    it('`reset api-key`: a new main key, the old one dead at once; a scoped key cannot', async () => {
      const bob = await createTestUser(api);
      const scoped = await createKey(api, bob, { permissions: categories('user_write') });
      const refused = await vastai(
        api,
        { apiKey: scoped.key },
        'put',
        '/api/v0/commands/reset_apikey/',
        {
          client_id: 'me',
        },
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        error: 'permission_denied',
        msg: 'Permission denied: a scoped key cannot reset the main key (use a full key or a session)',
      });
      const response = await vastai(api, bob, 'put', '/api/v0/commands/reset_apikey/', {
        client_id: 'me',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        new_api_key: expect.stringMatching(/^gmk_/),
        id: expect.any(Number),
        prefix: response.body.new_api_key.slice(0, 8),
      });
      expect((await whoIs(bob.apiKey)).status).toBe(404);
      expect((await whoIs(response.body.new_api_key)).body.id).toBe(bob.id);
      // The scoped key is untouched.
      expect(
        (await vastai(api, { apiKey: scoped.key }, 'get', '/api/v0/users/current/')).status,
      ).toBe(403);
      expect(
        (
          await vastai(
            api,
            { apiKey: response.body.new_api_key },
            'put',
            '/api/v0/commands/reset_apikey/',
            {
              client_id: 12345,
            },
          )
        ).status,
      ).toBe(400);
    });
  });

  describe('constraints, ip_whitelist, expiry', () => {
    it('a key limited to one endpoint group updates and deletes it, and gets 403 on another', async () => {
      const owner = await createTestUser(api);
      const group = async (name: string) =>
        (
          await api
            .http()
            .post('/api/v0/endptjobs/')
            .set(owner.auth)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify({ endpoint_name: name }))
        ).body.result as number;
      const [mine, other] = [await group('ci-mine'), await group('ci-other')];
      const ci = await createKey(api, owner, { name: 'ci', permissions: ciKeyFor(mine) });
      const update = (id: number, body: Record<string, unknown> = {}) =>
        vastai(api, { apiKey: ci.key }, 'put', `/api/v0/endptjobs/${id}/`, {
          client_id: 'me',
          endptjob_id: id,
          max_workers: 9,
          ...body,
        });
      expect((await update(mine)).status).toBe(200);
      const refused = await update(other);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        error: 'permission_denied',
        msg: `Permission denied: this key lacks misc: api.endptjobs.update with id eq ${mine} (this request has "${other}")`,
      });
      // Listing, or creating, is outside the key's routes.
      expect((await vastai(api, { apiKey: ci.key }, 'get', '/api/v0/endptjobs/')).body.msg).toBe(
        'Permission denied: this key lacks misc: api.endptjobs.list',
      );
      expect(
        (await vastai(api, { apiKey: ci.key }, 'delete', `/api/v0/endptjobs/${other}/`)).status,
      ).toBe(403);
      expect(
        (await vastai(api, { apiKey: ci.key }, 'delete', `/api/v0/endptjobs/${mine}/`)).status,
      ).toBe(200);
    });

    it('ip_whitelist: addresses and CIDR ranges, the client address behind a trusted proxy', async () => {
      const limited = await createKey(api, ada, {
        permissions: categories('user_read'),
        key_params: { ip_whitelist: ['203.0.113.0/24'] },
      });
      const from = (address?: string) => {
        const call = whoIs(limited.key);
        return address ? call.set('X-Forwarded-For', address) : call;
      };
      const refused = await from();
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        error: 'permission_denied',
        msg: 'Permission denied: this key may not be used from 127.0.0.1 (outside its ip_whitelist)',
      });
      // The test api listens on loopback, the default TRUSTED_PROXIES: X-Forwarded-For counts.
      expect((await from('203.0.113.77')).status).toBe(200);
      expect((await from('198.51.100.1')).status).toBe(403);
      // Trusting no proxy, the same header is the client's own claim and changes nothing.
      const untrusting = await startApi({ TRUSTED_PROXIES: 'none' });
      try {
        const response = await untrusting
          .http()
          .get('/api/v0/users/current/')
          .set('Authorization', `Bearer ${limited.key}`)
          .set('X-Forwarded-For', '203.0.113.77');
        expect(response.status).toBe(403);
      } finally {
        await untrusting.close();
      }
    });

    it('an expiring key works until expires_at, then answers that it expired', async () => {
      const soon = await createKey(api, ada, { ttl: 60 });
      expect((await whoIs(soon.key)).status).toBe(200);
      const shown = await vastai(api, ada, 'get', `/api/v0/auth/apikeys/${soon.id}/`);
      expect(shown.body.expires_at - shown.body.created_at).toBeGreaterThanOrEqual(59);
      await api.app
        .get(DataSource)
        .query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
          soon.id,
        ]);
      // A cached copy holds the old expiry for at most the cache's bound (the change was made
      // in SQL, so nothing announced it); then the key is read again.
      const expired = await waitFor(
        () => whoIs(soon.key),
        (response) => response.status === 404,
        { what: 'the expired key refused' },
      );
      expect(expired.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This API key has expired.',
      });
    });

    it('refuses a document it cannot read with 400 naming the path; and bad expiries', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [
          { permissions: { api: { billing_reed: {} } } },
          'permissions.api.billing_reed: unknown category',
        ],
        [
          {
            permissions: {
              api: { misc: { 'api.endptjobs.update': { constraints: { id: { gt: 1 } } } } },
            },
          },
          'permissions.api.misc["api.endptjobs.update"].constraints.id.gt: unknown operator (one of eq, gte, lte)',
        ],
        [
          { permissions: { api: { misc: { 'api.nope': {} } } } },
          'permissions.api.misc["api.nope"]: unknown route',
        ],
        [
          { key_params: { ip_whitelist: ['example.com'] } },
          'key_params.ip_whitelist[0]: not an IPv4 or IPv6 address or CIDR range',
        ],
        // key_params as JSON text is held to the same input limits as a body: a NUL would
        // otherwise reach the jsonb column and a lone surrogate be stored altered.
        [
          { key_params: '{"group": "a\\u0000b"}' },
          'key_params.group: contains a control character',
        ],
        [
          { key_params: '{"group": "\\ud800"}' },
          'key_params.group: contains an unpaired UTF-16 surrogate',
        ],
        [{ key_params: '['.repeat(40) + ']'.repeat(40) }, 'key_params nests deeper than 32 levels'],
        [{ key_params: '{"a": 1e999}' }, 'key_params.a: number outside'],
        [{ ttl: 10 }, 'ttl: the key must live at least 60 seconds'],
        [{ ttl: 60, expires_at: 9_999_999_999 }, 'expires_at and ttl: give one of the two'],
        [{ name: 7 }, 'name: must be a string'],
      ];
      for (const [body, problem] of cases) {
        const response = await vastai(api, ada, 'post', '/api/v0/auth/apikeys/', body);
        expect({ body, status: response.status, response: response.body }).toEqual({
          body,
          status: 400,
          response: {
            success: false,
            error: 'bad_request',
            msg: expect.stringContaining(`Invalid request: ${problem}`),
          },
        });
      }
    });
  });

  describe('no escalation', () => {
    it('a scoped key makes only keys within its own permissions; a 2FA or password session counts as a full key', async () => {
      const carol = await createTestUser(api, { password: 'carol password 1' });
      const scoped = await createKey(api, carol, {
        permissions: {
          api: {
            user_write: {},
            misc: { 'api.endptjobs.update': { constraints: { id: { gte: 10, lte: 20 } } } },
          },
        },
      });
      const make = (permissions: unknown) =>
        vastai(api, { apiKey: scoped.key }, 'post', '/api/v0/auth/apikeys/', {
          name: 'child',
          permissions,
        });
      for (const [permissions, beyond] of [
        [null, 'full access (no permission document)'],
        [categories('billing_read'), 'billing_read'],
        [categories('misc', 'user_write'), 'misc (every route)'],
        [
          {
            api: { misc: { 'api.endptjobs.update': { constraints: { id: { gte: 5, lte: 20 } } } } },
          },
          'misc: api.endptjobs.update beyond id gte 10 and lte 20',
        ],
      ] as const) {
        const response = await make(permissions);
        expect({ permissions, status: response.status, msg: response.body.msg }).toEqual({
          permissions,
          status: 403,
          msg: `Permission denied: a key can only make keys within its own permissions; this one would have ${beyond}`,
        });
      }
      expect(
        (
          await make({
            api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: 15 } } } } },
          })
        ).status,
      ).toBe(200);
      // A password session is the user's full credential.
      const login = await passwordLogin(api, {
        username: carol.email,
        password: 'carol password 1',
      });
      const session = login.body.session_key as string;
      const full = await vastai(api, { apiKey: session }, 'post', '/api/v0/auth/apikeys/', {
        name: 'from session',
      });
      expect(full.status).toBe(200);
      expect(full.body.permissions).toBeNull();
      // So is a session a 2FA login opens (here with a backup code, as the command line does).
      const { backupCodes } = await enableTotp(api, carol);
      const tfaSession = await backupCodeSession(api, carol, backupCodes[0]);
      const fromTfa = await vastai(api, { apiKey: tfaSession }, 'post', '/api/v0/auth/apikeys/', {
        name: 'from 2FA session',
      });
      expect(fromTfa.status).toBe(200);
      expect(fromTfa.body.permissions).toBeNull();
    });
  });

  describe('security events and notices', () => {
    it('creating, deleting and resetting keys are events and mails naming the key and its prefix, never the key', async () => {
      const dave = await createTestUser(api);
      const created = await createKey(api, dave, { name: 'Deploy <bot>' });
      await vastai(api, dave, 'delete', `/api/v0/auth/apikeys/${created.id}/`);
      const reset = await vastai(api, dave, 'put', '/api/v0/commands/reset_apikey/', {
        client_id: 'me',
      });
      const events = await storedEvents(api, dave.id);
      expect(events.map((event) => [event.kind, event.details, event.user_agent])).toEqual([
        [
          'api_key_created',
          { key_id: created.id, name: 'Deploy <bot>', prefix: created.key.slice(0, 8) },
          null,
        ],
        [
          'api_key_deleted',
          { key_id: created.id, name: 'Deploy <bot>', prefix: created.key.slice(0, 8) },
          VASTAI_USER_AGENT,
        ],
        [
          'api_key_reset',
          { key_id: reset.body.id, name: null, prefix: reset.body.new_api_key.slice(0, 8) },
          VASTAI_USER_AGENT,
        ],
      ]);
      await noticesSettled(api, dave.id);
      const notices = await noticesTo(api, dave.email);
      expect(notices.map((notice) => notice.subject)).toEqual([
        'GPU Marketplace security notice: an API key was created',
        'GPU Marketplace security notice: an API key was deleted',
        'GPU Marketplace security notice: your main API key was replaced',
      ]);
      expect(notices[0].body).toContain(
        `"Deploy <bot>", the key beginning ${created.key.slice(0, 8)}`,
      );
      const everything = JSON.stringify(notices) + JSON.stringify(events);
      for (const secret of [created.key, reset.body.new_api_key, dave.apiKey])
        expect(everything).not.toContain(secret);
    });
  });

  it('sends exactly what the public client sends (Python json.dumps)', () => {
    expect(pythonJson({ name: 'n', permissions: { api: { misc: {} } }, key_params: null })).toBe(
      '{"name": "n", "permissions": {"api": {"misc": {}}}, "key_params": null}',
    );
  });
});
