import {
  cookieValue,
  listDevices,
  passwordLoginWithDevice,
  passwordTotpUser,
  rememberedLogin,
  storedEvents,
} from '@test/support/account-security';
import { vastai } from '@test/support/access';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { waitFor } from '@test/support/wait';

/** GET and DELETE /api/v0/auth/sessions/: the caller's sessions, one ended, or all others. */
describe('sessions a user sees and ends', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const login = async (user: TestUser, password: string, userAgent: string): Promise<string> => {
    const response = await api
      .http()
      .post('/api/v0/users/login/')
      .set('User-Agent', userAgent)
      .send({ email: user.email, password });
    expect(response.status).toBe(200);
    return response.body.session_key as string;
  };
  const sessionsOf = (key: string) =>
    api.http().get('/api/v0/auth/sessions/').set('Authorization', `Bearer ${key}`);
  const end = (key: string, body: unknown) =>
    api
      .http()
      .delete('/api/v0/auth/sessions/')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  it('lists the live sessions newest first: where and with what each was opened, its last use, the current one', async () => {
    const password = 'erin password 1';
    const erin = await createTestUser(api, { password });
    const laptop = await login(erin, password, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0');
    const phone = await login(erin, password, 'gpumkt/1.0');
    const listed = await sessionsOf(laptop);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      success: true,
      sessions: [
        {
          id: expect.any(Number),
          created_at: expect.any(Number),
          last_used: null,
          expires_at: expect.any(Number),
          address: '127.0.0.1',
          last_address: null,
          user_agent: 'gpumkt/1.0',
          current: false,
          trusted_device: false,
        },
        expect.objectContaining({
          user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
          current: true,
        }),
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain(laptop);
    // The laptop's use shows within the batch interval (a few seconds).
    const used = await waitFor(
      () => sessionsOf(phone),
      (response) => response.body.sessions[1].last_used !== null,
      { what: 'the first session’s last use written' },
    );
    expect(used.body.sessions[1]).toMatchObject({ last_address: '127.0.0.1' });
    // An API key of the user sees them too, none current.
    const viaKey = await vastai(api, erin, 'get', '/api/v0/auth/sessions/');
    expect(viaKey.body.sessions.map((s: { current: boolean }) => s.current)).toEqual([
      false,
      false,
    ]);
  });

  it('ends one session ({id}, or key_id as the public service names it); another user’s is not found', async () => {
    const password = 'frank password 1';
    const frank = await createTestUser(api, { password });
    const [first, second] = [await login(frank, password, 'a'), await login(frank, password, 'b')];
    const ids = (await sessionsOf(first)).body.sessions.map((s: { id: number }) => s.id);
    const ended = await end(first, { key_id: ids[0] });
    expect(ended.body).toEqual({
      success: true,
      msg: `Session ${ids[0]} ended.`,
      sessions_ended: 1,
      devices_revoked: 0,
    });
    expect((await sessionsOf(second)).body).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'Session expired. Please log in again.',
    });
    const stranger = await createTestUser(api);
    const foreign = await vastai(api, stranger, 'delete', '/api/v0/auth/sessions/', { id: ids[1] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      success: false,
      error: 'not_found',
      msg: `No session ${ids[1]}.`,
    });
    // Its own session, by id.
    expect((await end(first, { id: ids[1] })).status).toBe(200);
    expect((await sessionsOf(first)).status).toBe(404);
  });

  it('refuses a body that names neither or both, or not an id', async () => {
    const user = await createTestUser(api);
    for (const body of [{}, { id: 'x' }, { id: 1, all: true }, { all: 'yes' }, { id: 0 }]) {
      const response = await vastai(api, user, 'delete', '/api/v0/auth/sessions/', body);
      expect({ body, status: response.status, error: response.body.error }).toEqual({
        body,
        status: 400,
        error: 'bad_request',
      });
    }
  });

  it('signs out everywhere: every other session and every trusted device; this session and API keys stay', async () => {
    const user = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const remembered = await rememberedLogin(api, user, { 'User-Agent': 'browser one' });
    expect(remembered.status).toBe(200);
    const device = cookieValue(remembered, 'gm_device')!;
    const trusted = await passwordLoginWithDevice(api, user.user.email, user.password, device, {
      'User-Agent': 'browser one',
    });
    expect(trusted.body.session_key).toBeDefined();
    // Logged out, the session key travels in the X-Session-Key header (and a cookie).
    const current = remembered.headers['x-session-key'] as string;
    const listed = (await sessionsOf(current)).body.sessions;
    expect(
      listed.map((s: { trusted_device: boolean; current: boolean }) => [
        s.trusted_device,
        s.current,
      ]),
    ).toEqual([
      [true, false],
      [false, true],
    ]);
    const response = await end(current, { all: true });
    expect(response.body).toEqual({
      success: true,
      msg: '1 other session ended, 1 trusted device revoked.',
      sessions_ended: 1,
      devices_revoked: 1,
    });
    expect((await sessionsOf(trusted.body.session_key)).status).toBe(404);
    expect((await sessionsOf(current)).body.sessions).toHaveLength(1);
    expect((await listDevices(api, { Authorization: `Bearer ${current}` })).body.devices).toEqual(
      [],
    );
    expect((await vastai(api, user.user, 'get', '/api/v0/users/current/')).status).toBe(200);
    const events = (await storedEvents(api, user.user.id)).slice(-2);
    expect(events.map((event) => [event.kind, event.details])).toEqual([
      ['device_revoked', { devices: 1, cause: 'user' }],
      ['session_revoked', { sessions: 1, cause: 'user' }],
    ]);
  });
});
