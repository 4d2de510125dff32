import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_FILE, ConfigStore, SESSION_KEY_FILE } from '../config/config-store';
import { resolveApiKey } from '../config/key-resolution';
import { ApiError, CliFailure } from '../errors';
import { memoryIo } from '../testing/memory-io';
import { ApiClient } from './api-client';
import { DEFAULT_RETRY_POLICY } from './retry-policy';

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

function fakeFetch(replies: Reply[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new TypeError('fetch failed');
    return new Response(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body), {
      status: reply.status,
      headers: reply.headers,
    });
  }) as unknown as typeof fetch;
  return { impl, calls };
}

function client(
  replies: Reply[],
  options: { explain?: boolean; retries?: number; store?: ConfigStore; baseUrl?: string } = {},
) {
  const memory = memoryIo();
  const store =
    options.store ?? new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
  const fetchMock = fakeFetch(replies);
  const api = new ApiClient({
    baseUrl: options.baseUrl ?? 'http://api.test',
    policy: { ...DEFAULT_RETRY_POLICY, retries: options.retries ?? 3 },
    explain: options.explain ?? false,
    timeoutMs: 1000,
    io: memory.io,
    store,
    resolveKey: () => resolveApiKey(undefined, {}, store),
    fetchImpl: fetchMock.impl,
  });
  return { api, memory, store, calls: fetchMock.calls };
}

describe('ApiClient', () => {
  it('retries a 429 after the Retry-After the server asked for, then returns the body', async () => {
    const { api, memory, calls } = client([
      {
        status: 429,
        body: { detail: 'API requests too frequent endpoint threshold=1.0' },
        headers: { 'Retry-After': '1' },
      },
      { status: 503, body: { success: false, msg: 'busy' } },
      { status: 200, body: { ok: true } },
    ]);
    await expect(api.get('/api/v0/users/current')).resolves.toEqual({ ok: true });
    expect(calls).toHaveLength(3);
    expect(memory.sleeps).toEqual([1000, 225]);
  });

  it('reports the last error once retries run out, and does not retry a 400', async () => {
    const busy = {
      status: 503,
      body: { success: false, error: 'service_unavailable', msg: 'busy' },
    };
    const exhausted = client([busy, busy], { retries: 1 });
    const error = await exhausted.api.post('/api/v0/tfa/email/', { body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', text: 'busy' });
    expect(exhausted.calls).toHaveLength(2);

    const bad = client([{ status: 400, body: { success: false, msg: 'no' } }]);
    await expect(bad.api.get('/api/v0/users/current')).rejects.toBeInstanceOf(ApiError);
    expect(bad.calls).toHaveLength(1);
  });

  it('sends JSON bodies on POST/PUT/DELETE ({} when none), none on GET, and the Bearer key', async () => {
    const store = new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
    store.write(API_KEY_FILE, 'key-1');
    const { api, calls } = client(
      [
        { status: 200, body: {} },
        { status: 200, body: {} },
      ],
      { store },
    );
    await api.delete('/api/v0/endptjobs/{id}/', { params: { path: { id: 7 } } });
    await api.get('/api/v0/charges/', { params: { query: { select_filters: 'b c' } } });
    expect(calls[0].init.body).toBe('{}');
    expect(calls[0].init.headers).toMatchObject({
      Authorization: 'Bearer key-1',
      'Content-Type': 'application/json',
    });
    expect(calls[0].url).toBe('http://api.test/api/v0/endptjobs/7/');
    expect(calls[1].url).toBe('http://api.test/api/v0/charges/?select_filters=b+c');
    expect(calls[1].init.body).toBeUndefined();
  });

  it('explains requests on stderr with the key redacted, also inside bodies', async () => {
    const store = new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
    store.write(API_KEY_FILE, 'sekrit');
    const { api, memory } = client(
      [
        { status: 200, body: {} },
        { status: 200, body: {} },
      ],
      { explain: true, store },
    );
    await api.get('/api/v0/charges/', {
      params: { query: { select_filters: { day: { gte: 1 } }, limit: 5 } },
    });
    await api.put('/api/v0/tfa/update/', { body: { label: 'sekrit', tfa_method_id: 1 } });
    expect(memory.stderr()).toBe(
      [
        '[explain] GET http://api.test/api/v0/charges/?select_filters=%7B%22day%22%3A%7B%22gte%22%3A1%7D%7D&limit=5',
        '[explain]   query select_filters = {"day":{"gte":1}}',
        '[explain]   query limit = 5',
        `[explain]   Authorization: Bearer <redacted> (key from ${store.path(API_KEY_FILE)})`,
        '[explain] PUT http://api.test/api/v0/tfa/update/',
        '[explain]   body {"label":"<redacted>","tfa_method_id":1}',
        `[explain]   Authorization: Bearer <redacted> (key from ${store.path(API_KEY_FILE)})`,
        '',
      ].join('\n'),
    );
  });

  it('falls back from an expired session to the API key file once, with a notice', async () => {
    const store = new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
    store.write(API_KEY_FILE, 'api-key');
    store.write(SESSION_KEY_FILE, 'session-key');
    const { api, memory, calls } = client(
      [
        {
          status: 404,
          body: {
            success: false,
            error: 'auth_error',
            msg: 'Session expired. Please log in again.',
          },
        },
        { status: 200, body: { id: 1 } },
      ],
      { store },
    );
    await expect(api.get('/api/v0/users/current')).resolves.toEqual({ id: 1 });
    expect(
      calls.map((call) => (call.init.headers as Record<string, string>).Authorization),
    ).toEqual(['Bearer session-key', 'Bearer api-key']);
    expect(store.read(SESSION_KEY_FILE)).toBeUndefined();
    expect(memory.stderr()).toContain('Notice: your 2FA session has expired');
  });

  it('also falls back on the 403 auth_error for a session that is no longer valid', async () => {
    const store = new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
    store.write(API_KEY_FILE, 'api-key');
    store.write(SESSION_KEY_FILE, 'session-key');
    const { api, calls } = client(
      [
        { status: 403, body: { success: false, error: 'auth_error', msg: 'Session expired' } },
        { status: 200, body: { id: 1 } },
      ],
      { store },
    );
    await expect(api.get('/api/v0/users/current')).resolves.toEqual({ id: 1 });
    expect(calls).toHaveLength(2);
    // Another 403 (a team context) is a real refusal, not an expired session.
    store.write(SESSION_KEY_FILE, 'session-key');
    const team = client(
      [{ status: 403, body: { success: false, error: 'team_user_forbidden', msg: 'no' } }],
      { store },
    );
    await expect(team.api.get('/api/v0/users/current')).rejects.toBeInstanceOf(ApiError);
    expect(team.calls).toHaveLength(1);
    expect(store.read(SESSION_KEY_FILE)).toBe('session-key');
  });

  it('does not fall back for a key that did not come from the session file', async () => {
    const store = new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
    store.write(API_KEY_FILE, 'api-key');
    const { api, calls } = client([{ status: 404, body: { msg: 'Invalid user key' } }], { store });
    await expect(api.get('/api/v0/users/current')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it('turns a connection failure into one line after its retries', async () => {
    const { api, calls, memory } = client([], { retries: 2 });
    const error = await api.get('/api/v0/users/current').catch((e) => e);
    expect(error).toBeInstanceOf(CliFailure);
    expect(error.message).toBe('cannot reach http://api.test: fetch failed');
    expect(calls).toHaveLength(3);
    expect(memory.sleeps).toEqual([150, 225]);
  });

  it('refuses a 2xx whose body is not JSON, in one line that points at --url', async () => {
    const { api } = client([
      {
        status: 200,
        body: '<html><title>Welcome</title></html>',
        headers: { 'content-type': 'text/html' },
      },
    ]);
    const error = await api.get('/api/v0/users/current').catch((e) => e);
    expect(error).toBeInstanceOf(CliFailure);
    expect(error.message).toBe(
      'http://api.test answered 200 with a body that is not JSON (text/html: Welcome); ' +
        "check that --url (or $GPUMKT_URL) is the api's address",
    );
  });

  it('joins --url and the path with exactly one slash, keeping --url as given', async () => {
    for (const [baseUrl, url] of [
      ['http://h:1/', 'http://h:1/api/v0/users/current'],
      ['http://h:1//', 'http://h:1/api/v0/users/current'],
      ['HTTP://H:80', 'HTTP://H:80/api/v0/users/current'],
    ]) {
      const { api, calls } = client([{ status: 200, body: {} }], { baseUrl });
      await api.get('/api/v0/users/current');
      expect(calls[0].url).toBe(url);
    }
  });

  it('sends a named key with no session fallback, and says which key it is', async () => {
    const store = new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));
    store.write(API_KEY_FILE, 'api-key');
    store.write(SESSION_KEY_FILE, 'session-key');
    const { api, calls, memory } = client(
      [{ status: 404, body: { success: false, error: 'auth_error', msg: 'Invalid user key' } }],
      { store, explain: true },
    );
    const error = await api
      .withKey('session-key')
      .post('/api/v0/users/logout/')
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
    expect((calls[0].init.headers as Record<string, string>).Authorization).toBe(
      'Bearer session-key',
    );
    expect(calls[0].init.body).toBe('{}');
    expect(memory.stderr()).toContain('Bearer <redacted> (the saved 2FA session key)');
    expect(store.read(SESSION_KEY_FILE)).toBe('session-key');
  });
});
