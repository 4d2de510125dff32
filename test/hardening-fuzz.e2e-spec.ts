import fc from 'fast-check';
import { TransactionalEntityManager } from '@app/platform';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  authHeader,
  bodyFor,
  hostileBody,
  hostileQuery,
  malformedBody,
  pathParam,
  queryString,
} from '@test/support/fuzz-arbitraries';

/**
 * Property over every route of the generated OpenAPI document: whatever arrives, the answer
 * is never a 5xx (503 aside), always JSON in the documented error shape, never a stack
 * trace, and a rejected request changes nothing the caller owns.
 * FUZZ_RUNS (default 5000 in CI) sets the total number of cases; `npm run fuzz` runs more.
 */
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
/**
 * About 4 ms a case alone on 2 cores, 10 times that with both cores busy elsewhere; the
 * bound (25 times) only catches a hang, it measures nothing (bench/ measures speed).
 */
const FUZZ_TIMEOUT_MS = Math.max(300_000, TOTAL_RUNS * 100);
const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+|TypeError|ReferenceError|QueryFailedError/;

interface RouteCase {
  method: string;
  path: string;
  bodyKeys: string[];
}

function routesOf(document: {
  paths: Record<string, Record<string, { requestBody?: unknown }>>;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}): RouteCase[] {
  const routes: RouteCase[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const ref = JSON.stringify(operation.requestBody ?? {}).match(
        /#\/components\/schemas\/([\w-]+)/,
      )?.[1];
      const bodyKeys = ref
        ? Object.keys(document.components?.schemas?.[ref]?.properties ?? {})
        : [];
      routes.push({ method: method.toUpperCase(), path, bodyKeys });
    }
  }
  return routes;
}

describe('fuzzing every route', () => {
  let api: TestApi;
  let user: TestUser;
  let routes: RouteCase[];
  let stateQuery: string;

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api, { phone: '+15555550100' });
    routes = routesOf((await api.http().get('/api/v0/openapi.json')).body);
    // Everything the fuzz user owns, in every table that records an owner; a credential's
    // last use is bookkeeping written in batches a few seconds after any request, not state.
    const manager = api.app.get(TransactionalEntityManager).manager;
    const owned: Array<{ table_name: string; column_name: string }> = await manager.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name IN ('user_id', 'owner_id')
        ORDER BY table_name`,
    );
    stateQuery =
      owned
        .map(
          ({ table_name, column_name }) =>
            `SELECT '${table_name}' AS t, md5(coalesce(string_agg((to_jsonb(x) - 'last_used_at' - 'last_address')::text, '|' ORDER BY x::text), '')) AS h FROM "${table_name}" x WHERE "${column_name}" = $1`,
        )
        .join(' UNION ALL ') || `SELECT 'none' AS t, '' AS h`;
  });

  afterAll(() => api.close());

  const snapshot = async () =>
    JSON.stringify(
      await api.app.get(TransactionalEntityManager).manager.query(stateQuery, [user.id]),
    );

  it('discovers the routes to fuzz from the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThanOrEqual(2);
  });

  it(
    'answers every random request with a documented JSON shape and no 5xx',
    async () => {
      const perRoute = Math.max(50, Math.ceil(TOTAL_RUNS / routes.length));
      let cases = 0;
      for (const route of routes) {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              bodyFor(route.bodyKeys).map((body) => ({
                body: JSON.stringify(body),
                contentType: 'application/json',
              })),
              malformedBody,
            ),
            queryString,
            pathParam,
            authHeader(user.apiKey),
            fc.boolean(),
            fc.integer({ min: 0, max: 4 }),
            async (payload, query, param, authorization, trailingSlash, checkState) => {
              cases += 1;
              const path = route.path
                .replace(/\{[^}]+\}/g, encodeURIComponent(param).replace(/%25/g, '%'))
                .replace(/\/?$/, trailingSlash ? '/' : '');
              const before = checkState === 0 ? await snapshot() : null;
              const response = await fetch(`${api.url}${path}${query}`, {
                method: route.method,
                headers: {
                  ...(authorization !== undefined ? { Authorization: authorization } : {}),
                  ...(route.method === 'GET' ? {} : { 'Content-Type': payload.contentType }),
                },
                body: route.method === 'GET' ? undefined : payload.body,
              });
              const text = await response.text();
              const context = `${route.method} ${path}${query} -> ${response.status} ${text.slice(0, 300)}`;
              if (response.status >= 500 && response.status !== 503)
                throw new Error(`server error: ${context}`);
              if (STACK_TRACE.test(text)) throw new Error(`stack trace leaked: ${context}`);
              if (route.path === '/metrics') return;
              expect(response.headers.get('content-type') ?? '').toMatch(/application\/json/);
              const body = JSON.parse(text) as unknown;
              // Answers are objects; a list may be an array (the audit log, as the public
              // client reads it), failures never are.
              if (
                typeof body !== 'object' ||
                body === null ||
                (Array.isArray(body) && response.status >= 400)
              )
                throw new Error(`not an object: ${context}`);
              // `reset api-key` rotated the fuzz user's main key: later routes use the new one.
              const rotated = (body as { new_api_key?: unknown }).new_api_key;
              if (response.status === 200 && typeof rotated === 'string') user.apiKey = rotated;
              if (response.status >= 400) {
                const error = body as Record<string, unknown>;
                if (response.status === 429 && 'detail' in error) {
                  expect(typeof error.detail).toBe('string');
                } else if (!(response.status === 503 && 'status' in error)) {
                  if (error.success !== false || typeof error.msg !== 'string')
                    throw new Error(`bad error shape: ${context}`);
                  if ('error' in error && typeof error.error !== 'string')
                    throw new Error(`bad error code: ${context}`);
                }
                if (before !== null && (await snapshot()) !== before)
                  throw new Error(`rejected request changed state: ${context}`);
              }
            },
          ),
          {
            numRuns: perRoute,
            seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
          },
        );
      }
      expect(cases).toBeGreaterThanOrEqual(Math.min(TOTAL_RUNS, routes.length * 50));
      console.log(`fuzz: ${cases} cases over ${routes.length} routes`);
    },
    FUZZ_TIMEOUT_MS,
  );

  /**
   * Random bodies rarely send one field alone with a given type; this sweep does, for every
   * documented field of every route: each JSON type once, by itself and beside the caller's
   * key. A field that is null, an array or an object must meet a 4xx, never the code below it.
   */
  it('answers every documented body field alone, in every JSON type, with no 5xx', async () => {
    const shapes: unknown[] = [null, true, 0, -1, 1.5, '', 'x', [], ['x'], {}, { a: 1 }];
    let cases = 0;
    const failures: string[] = [];
    for (const route of routes.filter((candidate) => candidate.bodyKeys.length > 0)) {
      const path = route.path.replace(/\{[^}]+\}/g, '1000001');
      for (const key of route.bodyKeys) {
        for (const value of shapes) {
          cases += 1;
          const response = await fetch(`${api.url}${path}`, {
            method: route.method,
            headers: { ...user.auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ [key]: value }),
          });
          const text = await response.text();
          const context = `${route.method} ${path} {"${key}": ${JSON.stringify(value)}} -> ${response.status} ${text.slice(0, 200)}`;
          if (response.status >= 500 && response.status !== 503)
            failures.push(`server error: ${context}`);
          else if (STACK_TRACE.test(text)) failures.push(`stack trace leaked: ${context}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cases).toBeGreaterThan(100);
  });

  /** The usual 400 body, whoever asks: the input limits run before authentication. */
  const expectBadRequest = async (response: Response, context: string) => {
    const text = await response.text();
    const where = `${context} -> ${response.status} ${text.slice(0, 200)}`;
    if (response.status !== 400) throw new Error(`expected 400: ${where}`);
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body.success !== false || body.error !== 'bad_request' || typeof body.msg !== 'string')
      throw new Error(`expected the bad_request envelope: ${where}`);
  };

  it(
    'refuses deep nesting, control characters, lone surrogates, huge numbers and huge arrays with 400 bad_request on every route',
    async () => {
      const perRoute = Math.max(20, Math.ceil(TOTAL_RUNS / 10 / routes.length));
      let cases = 0;
      for (const route of routes) {
        const path = route.path.replace(/\{[^}]+\}/g, '1000001');
        await fc.assert(
          fc.asyncProperty(
            hostileBody(route.bodyKeys),
            hostileQuery,
            authHeader(user.apiKey),
            async (hostile, query, authorization) => {
              cases += 1;
              const headers: Record<string, string> =
                authorization !== undefined ? { Authorization: authorization } : {};
              // GET bodies are ignored (the public client sends one), so GETs get the query.
              const response =
                route.method === 'GET'
                  ? await fetch(`${api.url}${path}${query}`, { headers })
                  : await fetch(`${api.url}${path}`, {
                      method: route.method,
                      headers: { ...headers, 'Content-Type': 'application/json' },
                      body: hostile.body,
                    });
              const sent =
                route.method === 'GET' ? query : `${hostile.kind}, ${hostile.body.length} bytes`;
              await expectBadRequest(response, `${route.method} ${path} (${sent})`);
            },
          ),
          {
            numRuns: perRoute,
            seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
          },
        );
      }
      expect(cases).toBe(perRoute * routes.length);
    },
    FUZZ_TIMEOUT_MS,
  );

  it('answers the reported attacks with 400: 3,000 levels on the login, NUL in a login name and in a 2FA label', async () => {
    const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    const post = (path: string, body: string, method = 'POST', auth = {}) =>
      fetch(`${api.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...auth },
        body,
      });
    await expectBadRequest(await post('/api/v0/users/login/', deep), 'deep login');
    await expectBadRequest(
      await post('/api/v0/users/login/', JSON.stringify({ username: 'a\u0000b', password: 'x' })),
      'NUL login',
    );
    await expectBadRequest(
      await post(
        '/api/v0/tfa/update/',
        JSON.stringify({ tfa_method: 'sms', label: 'phone\u0000' }),
        'PUT',
        user.auth,
      ),
      'NUL label',
    );
    await expectBadRequest(
      await post('/api/v0/users/login/', '{"username":"\\ud800","password":"x"}'),
      'lone surrogate login',
    );
    await expectBadRequest(
      await fetch(`${api.url}/api/v0/charges/?after_token=%00`, { headers: user.auth }),
      'NUL query',
    );
  });
});
