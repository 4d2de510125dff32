import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createTestUser, runManage, startApi, TestApi, TestUser } from '@test/support/api';
import { passwordLogin } from '@test/support/tfa-requests';

describe('foundation: platform kernel and accounts over HTTP', () => {
  let api: TestApi;
  let user: TestUser;

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api, { fullName: 'Ada Lovelace', credit: 25.5 });
  });

  afterAll(() => api.close());

  describe('authentication (spec "Authentication")', () => {
    it('answers 403 auth_error without an Authorization header', async () => {
      const response = await api.http().get('/api/v0/users/current/');
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      });
    });

    it('answers 404 auth_error for a key that matches no user', async () => {
      const response = await api
        .http()
        .get('/api/v0/users/current/')
        .set('Authorization', 'Bearer k y/+&');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Invalid user key',
      });
    });

    it('answers 404 for an empty Bearer value and for another scheme', async () => {
      for (const header of ['Bearer ', 'Basic abc']) {
        const response = await api
          .http()
          .get('/api/v0/users/current/')
          .set('Authorization', header);
        expect(response.status).toBe(404);
        expect(response.body.msg).toBe('Invalid user key');
      }
    });

    it('answers 404 "Session expired. Please log in again." for an expired session key', async () => {
      const login = await passwordLoginUser(api, { ttlSeconds: -1 });
      const response = await api
        .http()
        .get('/api/v0/users/current')
        .set('Authorization', `Bearer ${login.sessionKey}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Session expired. Please log in again.',
      });
    });
  });

  describe('GET /api/v0/users/current', () => {
    it('returns the user object with numeric credit and no secrets, on both slash variants', async () => {
      for (const path of ['/api/v0/users/current', '/api/v0/users/current/']) {
        const response = await api.http().get(path).set(user.auth);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          id: user.id,
          email: user.email,
          full_name: 'Ada Lovelace',
          fullname: 'Ada Lovelace',
          email_verified: true,
          tfa_status: 'disabled',
          credit: 25.5,
          balance: 25.5,
        });
        const text = JSON.stringify(response.body);
        expect(text).not.toContain(user.apiKey);
        expect(text).not.toMatch(/hash|argon/i);
      }
    });

    it('collapses leading duplicate slashes (client --url ending in /)', async () => {
      const response = await api.http().get('//api/v0/users/current').set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(user.id);
    });

    it('accepts a team-scoped API key', async () => {
      const result = await runManage([
        'apikey:create',
        '--user',
        String(user.id),
        '--team',
        '999999',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('not a member of team');
    });
  });

  describe('error envelope', () => {
    it('rejects malformed JSON with 400 bad_request', async () => {
      const response = await api
        .http()
        .post('/api/v0/users/login/')
        .set('Content-Type', 'application/json')
        .send('{"username": ');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'Malformed JSON body',
      });
    });

    it('rejects a non-JSON content type', async () => {
      const response = await api
        .http()
        .post('/api/v0/users/login/')
        .set('Content-Type', 'text/plain')
        .send('hello');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'Content-Type must be application/json',
      });
    });

    it('rejects a body over 64 KiB', async () => {
      const response = await api
        .http()
        .post('/api/v0/users/login/')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ username: 'x'.repeat(70 * 1024), password: 'p' }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'Request body exceeds 64 KiB',
      });
    });

    it('rejects a JSON body that is not an object', async () => {
      const response = await api
        .http()
        .post('/api/v0/users/login/')
        .set('Content-Type', 'application/json')
        .send('[1,2]');
      expect(response.status).toBe(400);
      expect(response.body.msg).toBe('Request body must be a JSON object');
    });

    it('names the failing field on validation errors', async () => {
      const response = await passwordLogin(api, { username: 'x', password: 42 });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('bad_request');
      expect(response.body.msg).toContain('password');
    });

    it('answers unknown routes with a JSON 404', async () => {
      const response = await api.http().get('/api/v0/no-such-thing/').set(user.auth);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.body).toEqual({
        success: false,
        error: 'not_found',
        msg: 'No route for GET /api/v0/no-such-thing/',
      });
    });
  });

  describe('password login', () => {
    it('returns a session key that works as a Bearer token, with cookie and header', async () => {
      const login = await passwordLoginUser(api);
      expect(login.response.status).toBe(200);
      expect(login.response.body).toMatchObject({ success: true, tfa_required: false });
      expect(login.response.headers['set-cookie'][0]).toMatch(
        /gm_session=.*HttpOnly.*Secure.*SameSite=Strict/,
      );
      expect(login.response.headers['x-session-key']).toBe(login.sessionKey);
      const me = await api
        .http()
        .get('/api/v0/users/current')
        .set('Authorization', `Bearer ${login.sessionKey}`);
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(login.email);
    });

    it('gives one uniform 401 for an unknown user and a wrong password', async () => {
      const known = await passwordLoginUser(api);
      const wrongPassword = await passwordLogin(api, { email: known.email, password: 'nope' });
      const unknownUser = await passwordLogin(api, {
        email: `${randomUUID()}@x.test`,
        password: 'nope',
      });
      expect(wrongPassword.status).toBe(401);
      expect(unknownUser.status).toBe(401);
      expect(wrongPassword.body).toEqual(unknownUser.body);
      expect(wrongPassword.body).toEqual({
        success: false,
        error: 'login_failed',
        msg: 'Invalid username or password.',
      });
    });

    it('refuses further attempts after 10 failures for one login name', async () => {
      const limited = await startApi({ RATE_LIMITS: 'on' });
      try {
        const redis = limited.app.get(Redis);
        await redis.del('login-failures:addr:127.0.0.1', 'login-failures:addr:::ffff:127.0.0.1');
        const known = await passwordLoginUser(limited);
        for (let i = 0; i < 10; i += 1) {
          await passwordLogin(limited, { email: known.email, password: 'wrong' }).expect(401);
        }
        const blocked = await passwordLogin(limited, {
          email: known.email,
          password: known.password,
        });
        expect(blocked.status).toBe(429);
        expect(blocked.body.error).toBe('login_throttled');
      } finally {
        await limited.close();
      }
    });
  });

  describe('health', () => {
    it('is live and ready against PostgreSQL, Redis and the queue', async () => {
      await api.http().get('/health/live').expect(200);
      const ready = await api.http().get('/health/ready');
      expect(ready.status).toBe(200);
      expect(Object.keys(ready.body.details)).toEqual(
        expect.arrayContaining(['database', 'redis', 'queue', 'instance']),
      );
    });
  });

  describe('OpenAPI', () => {
    it('serves the generated document with version 1.0.0', async () => {
      const response = await api.http().get('/api/v0/openapi.json');
      expect(response.status).toBe(200);
      expect(response.body.info.version).toBe('1.0.0');
      expect(response.body.paths['/api/v0/users/current']).toBeDefined();
    });
  });

  describe('operator command', () => {
    it('user:create prints {id, api_key} and the key reads /users/current', async () => {
      const email = `manage-${randomUUID()}@example.test`;
      const result = await runManage([
        'user:create',
        '--email',
        email,
        '--verified',
        '--full-name',
        'Op',
      ]);
      expect(result.code).toBe(0);
      const created = result.json as { id: number; api_key: string };
      expect(created).toEqual({ id: expect.any(Number), api_key: expect.any(String) });
      const me = await api
        .http()
        .get('/api/v0/users/current/')
        .set('Authorization', `Bearer ${created.api_key}`);
      expect(me.body).toMatchObject({
        id: created.id,
        email,
        email_verified: true,
        full_name: 'Op',
      });
    });

    it('reports bad input as JSON on stderr with exit code 1', async () => {
      const result = await runManage(['user:create', '--email', 'not-an-email']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stderr.trim().split('\n').pop()!)).toEqual({
        error: 'bad_request',
        msg: 'Invalid email: not-an-email',
      });
    });
  });
});

async function passwordLoginUser(api: TestApi, options: { ttlSeconds?: number } = {}) {
  const password = `pw-${randomUUID()}`;
  const target =
    options.ttlSeconds !== undefined ? await startApi({ SESSION_TTL_SECONDS: '60' }) : api;
  const user = await createTestUser(target, { password });
  const response = await passwordLogin(target, { email: user.email, password });
  let sessionKey = response.body.session_key as string;
  if (options.ttlSeconds !== undefined) {
    // Expire the session by moving its expiry into the past, as time would.
    const { TransactionalEntityManager } = await import('@app/platform');
    await target.app
      .get(TransactionalEntityManager)
      .manager.query(
        `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [user.id],
      );
    await target.close();
    sessionKey = response.body.session_key;
  }
  return { response, sessionKey, email: user.email, password };
}
