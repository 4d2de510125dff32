import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';

/** Group ids owned by this file (endpoint groups fixture range 40000-49999). */
const FIXTURE = { a: 40001, b: 40002 };

/** The body `vastai create endpoint` sends with no flags (Python json.dumps, all 12 keys). */
const CLI_CREATE_DEFAULTS =
  '{"client_id": "me", "min_load": 0.0, "min_cold_load": 0.0, "target_util": 0.9, ' +
  '"cold_mult": 2.5, "cold_workers": 5, "max_workers": 20, "endpoint_name": null, ' +
  '"max_queue_time": null, "target_queue_time": null, "inactivity_timeout": null, ' +
  '"autoscaler_instance": "prod"}';

/** The body `vastai update endpoint ID` sends: all 14 keys, unset ones null. */
function cliUpdateBody(id: number, set: Record<string, unknown> = {}): string {
  return JSON.stringify({
    client_id: 'me',
    endptjob_id: id,
    min_load: null,
    min_cold_load: null,
    target_util: null,
    cold_mult: null,
    cold_workers: null,
    max_workers: null,
    endpoint_name: null,
    endpoint_state: null,
    max_queue_time: null,
    target_queue_time: null,
    inactivity_timeout: null,
    autoscaler_instance: 'prod',
    ...set,
  });
}

const ROW_KEYS = [
  'api_key',
  'cold_mult',
  'cold_workers',
  'created_at',
  'endpoint_name',
  'endpoint_state',
  'id',
  'inactivity_timeout',
  'max_queue_time',
  'max_workers',
  'min_cold_load',
  'min_load',
  'target_queue_time',
  'target_util',
  'user_id',
];

describe('autoscaling: endpoint groups over HTTP', () => {
  let api: TestApi;
  let alice: TestUser;
  let bob: TestUser;

  const json = (call: Test, body: string) =>
    call.set('Content-Type', 'application/json').send(body);

  const create = (user: TestUser, body: Record<string, unknown> | string) =>
    json(
      api.http().post('/api/v0/endptjobs/').set(user.auth),
      typeof body === 'string' ? body : JSON.stringify(body),
    );

  const list = async (user: TestUser): Promise<Array<Record<string, unknown>>> => {
    const response = await api
      .http()
      .get('/api/v0/endptjobs/')
      .set(user.auth)
      .set('Content-Type', 'application/json')
      .send(`{"client_id": "me", "api_key": "${user.apiKey}"}`);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    return response.body.results;
  };

  const rowOf = async (user: TestUser, id: number) =>
    (await list(user)).find((row) => row.id === id);

  const put = (user: TestUser, id: number | string, body: string) =>
    json(api.http().put(`/api/v0/endptjobs/${id}/`).set(user.auth), body);

  const storedRow = async (id: number): Promise<Record<string, unknown>> =>
    (await api.app.get(DataSource).query(`SELECT * FROM endpoint_groups WHERE id = $1`, [id]))[0];

  const del = (
    user: TestUser,
    id: number | string,
    body = `{"client_id": "me", "endptjob_id": ${id}}`,
  ) => json(api.http().delete(`/api/v0/endptjobs/${id}/`).set(user.auth), body);

  beforeAll(async () => {
    api = await startApi();
    alice = await createTestUser(api);
    bob = await createTestUser(api);
  });

  afterAll(() => api.close());

  describe('create endpoint', () => {
    it('accepts the exact default body of the public client and answers {success, result}', async () => {
      const before = Math.floor(Date.now() / 1000);
      const response = await create(alice, CLI_CREATE_DEFAULTS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, result: expect.any(Number) });
      const row = await rowOf(alice, response.body.result);
      expect(row).toEqual({
        id: response.body.result,
        endpoint_name: null,
        user_id: alice.id,
        created_at: expect.any(Number),
        endpoint_state: 'active',
        min_load: 0,
        min_cold_load: 0,
        target_util: 0.9,
        cold_mult: 2.5,
        cold_workers: 5,
        max_workers: 20,
        max_queue_time: 30,
        target_queue_time: 10,
        inactivity_timeout: 600,
        api_key: expect.stringMatching(/^[A-Za-z0-9]{43}$/),
      });
      expect(row!.created_at as number).toBeGreaterThanOrEqual(before);
      // At rest the key exists only encrypted.
      const [stored] = await api.app
        .get(DataSource)
        .query(`SELECT * FROM endpoint_groups WHERE id = $1`, [response.body.result]);
      expect(JSON.stringify(stored)).not.toContain(row!.api_key as string);
      expect(Number.isInteger(row!.created_at)).toBe(true);
    });

    it('stores the given options (floats sent as 10.0) and lets groups share an endpoint_name', async () => {
      const body =
        '{"client_id": "me", "min_load": 10.0, "min_cold_load": 2.5, "target_util": 1.0, ' +
        '"cold_mult": 3.0, "cold_workers": 2, "max_workers": 4, "endpoint_name": "llama-prod", ' +
        '"max_queue_time": 60.0, "target_queue_time": 60.0, "inactivity_timeout": 0, ' +
        '"autoscaler_instance": "prod"}';
      const first = await create(alice, body);
      const second = await create(alice, body);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.result).not.toBe(first.body.result);
      const rows = (await list(alice)).filter((row) => row.endpoint_name === 'llama-prod');
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        min_load: 10,
        min_cold_load: 2.5,
        target_util: 1,
        cold_mult: 3,
        cold_workers: 2,
        max_workers: 4,
        max_queue_time: 60,
        target_queue_time: 60,
        inactivity_timeout: 0,
      });
      // Each group has its own worker key, distinct from the owner's API key.
      expect(rows[0].api_key).not.toBe(rows[1].api_key);
      expect(rows.map((row) => row.api_key)).not.toContain(alice.apiKey);
    });

    it('accepts model names with dots, slashes and colons as endpoint_name', async () => {
      for (const name of ['llama-3.1-8b', 'meta/llama:3.1', 'Qwen2.5_72B-instruct']) {
        const created = await create(alice, { endpoint_name: name });
        expect(created.status).toBe(200);
        expect(await rowOf(alice, created.body.result)).toMatchObject({ endpoint_name: name });
      }
      const refused = await create(alice, { endpoint_name: 'llama 3.1?' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        error: 'invalid_args',
        msg: 'Invalid request: endpoint_name: must be 1-255 characters of letters, digits, ., _, -, / or :',
      });
    });

    it('turns the nulls the client sends into the spec defaults, whichever fields are set', async () => {
      // `vastai create endpoint --max_queue_time 60 --max_workers 8`: the rest null or CLI defaults.
      const response = await create(
        alice,
        '{"client_id": "me", "min_load": 0.0, "min_cold_load": 0.0, "target_util": 0.9, ' +
          '"cold_mult": 2.5, "cold_workers": 5, "max_workers": 8.0, "endpoint_name": null, ' +
          '"max_queue_time": 60.0, "target_queue_time": null, "inactivity_timeout": 300.0, ' +
          '"autoscaler_instance": "prod"}',
      );
      expect(response.status).toBe(200);
      const row = await rowOf(alice, response.body.result);
      expect(row).toMatchObject({
        endpoint_name: null,
        max_workers: 8,
        max_queue_time: 60,
        target_queue_time: 10,
        inactivity_timeout: 300,
      });
      const [stored] = await api.app.get(DataSource).query(
        `SELECT max_queue_time, target_queue_time, inactivity_timeout, endpoint_state
             FROM endpoint_groups WHERE id = $1`,
        [response.body.result],
      );
      expect(stored).toEqual({
        max_queue_time: 60,
        target_queue_time: 10,
        inactivity_timeout: 300,
        endpoint_state: 'active',
      });
    });

    it.each<[string, string]>([
      ['{"min_load": 1e999}', 'min_load'],
      ['{"max_queue_time": -1e999}', 'max_queue_time'],
    ])(
      'refuses the raw body %s at the parser (a number JSON cannot hold), naming %s',
      async (body, field) => {
        const before = (await list(alice)).length;
        const response = await create(alice, body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: 'bad_request',
          msg: expect.stringContaining(`${field}:`),
        });
        expect(await list(alice)).toHaveLength(before);
      },
    );

    it.each<[string, string]>([
      ['{"cold_workers": 2.5}', 'cold_workers'],
      ['{"inactivity_timeout": "600"}', 'inactivity_timeout'],
    ])('refuses the raw body %s naming %s', async (body, field) => {
      const before = (await list(alice)).length;
      const response = await create(alice, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'invalid_args',
        msg: expect.stringContaining(`${field}:`),
      });
      expect(await list(alice)).toHaveLength(before);
    });

    it.each<[Record<string, unknown>, string]>([
      [{ min_load: -1.0 }, 'min_load'],
      [{ min_cold_load: -0.5 }, 'min_cold_load'],
      [{ target_util: 0.0 }, 'target_util'],
      [{ target_util: 1.5 }, 'target_util'],
      [{ cold_mult: 0.0 }, 'cold_mult'],
      [{ cold_workers: -1 }, 'cold_workers'],
      [{ cold_workers: 1.5 }, 'cold_workers'],
      [{ max_workers: -1 }, 'max_workers'],
      [{ cold_workers: 21 }, 'cold_workers'],
      [{ cold_workers: 3, max_workers: 2 }, 'cold_workers'],
      [{ endpoint_name: 'bad name!' }, 'endpoint_name'],
      [{ endpoint_name: '' }, 'endpoint_name'],
      [{ endpoint_name: 'x'.repeat(256) }, 'endpoint_name'],
      [{ endpoint_name: 42 }, 'endpoint_name'],
      [{ max_queue_time: 0.0 }, 'max_queue_time'],
      [{ target_queue_time: 0.0 }, 'target_queue_time'],
      [{ target_queue_time: 31.0 }, 'target_queue_time'],
      [{ max_queue_time: 5.0 }, 'target_queue_time'],
      [{ inactivity_timeout: -1 }, 'inactivity_timeout'],
      [{ inactivity_timeout: 2.5 }, 'inactivity_timeout'],
      [{ min_load: 'NaN' }, 'min_load'],
      [{ target_util: 'Infinity' }, 'target_util'],
      [{ cold_mult: '-Infinity' }, 'cold_mult'],
      [{ max_workers: '10' }, 'max_workers'],
      [{ min_load: '5' }, 'min_load'],
      [{ target_util: 'high' }, 'target_util'],
      [{ cold_workers: false }, 'cold_workers'],
      [{ endpoint_name: ['a'] }, 'endpoint_name'],
      [{ endpoint_name: 'line\nbreak' }, 'endpoint_name'],
      [{ endpoint_state: 'stopped' }, 'endpoint_state'],
      [{ endptjob_id: 5 }, 'endptjob_id'],
      [{ autoscaler_instance: 1 }, 'autoscaler_instance'],
      [{ min_load: true }, 'min_load'],
      [{ min_load: [1] }, 'min_load'],
      [{ max_workers: 2 ** 31 }, 'max_workers'],
      [{ surprise: 1 }, 'surprise'],
      [{ client_id: 5 }, 'client_id'],
    ])('refuses %j with 400 invalid_args naming %s', async (options, field) => {
      const before = (await list(alice)).length;
      const response = await create(alice, { client_id: 'me', ...options });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'invalid_args',
        msg: expect.stringContaining(field),
      });
      expect(await list(alice)).toHaveLength(before);
    });

    it('accepts NaN-free JSON only (a bare NaN token is malformed JSON)', async () => {
      const response = await create(alice, '{"min_load": NaN}');
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
    });
  });

  describe('show endpoints', () => {
    it("returns only the caller's groups, ignoring the JSON body the client sends (api_key null too)", async () => {
      const own = await create(bob, {});
      const response = await api
        .http()
        .get('/api/v0/endptjobs/')
        .set(bob.auth)
        .set('Content-Type', 'application/json')
        .send('{"client_id": "me", "api_key": null}');
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['results', 'success']);
      expect(response.body.results.map((row: { id: number }) => row.id)).toEqual([own.body.result]);
      for (const row of response.body.results) expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
      const aliceIds = (await list(alice)).map((row) => row.id);
      expect(aliceIds).not.toContain(own.body.result);
      expect(aliceIds.length).toBeGreaterThan(0);
    });

    it('ignores whatever body the GET carries', async () => {
      const expected = await list(alice);
      for (const [type, body] of [
        ['application/json', '{}'],
        [
          'application/json',
          '{"client_id": 5, "api_key": ["x"], "user_id": 1, "nested": {"a": null}}',
        ],
        ['application/json', `{"client_id": "me", "api_key": "${bob.apiKey}"}`],
        ['application/json', '["client_id", "me"]'],
        ['application/json', '"me"'],
        ['application/json', '{"client_id": '],
        ['text/plain', 'client_id=me'],
      ]) {
        const response = await api
          .http()
          .get('/api/v0/endptjobs/')
          .set(alice.auth)
          .set('Content-Type', type)
          .send(body);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true, results: expected });
      }
    });

    it("never shows a user another user's groups or worker keys", async () => {
      const aliceRows = await list(alice);
      expect(aliceRows.length).toBeGreaterThan(0);
      const response = await api
        .http()
        .get('/api/v0/endptjobs/')
        .set(bob.auth)
        .set('Content-Type', 'application/json')
        .send(`{"client_id": "me", "api_key": "${bob.apiKey}"}`);
      expect(response.status).toBe(200);
      for (const row of response.body.results) expect(row.user_id).toBe(bob.id);
      for (const row of aliceRows) {
        expect(row.user_id).toBe(alice.id);
        expect(response.text).not.toContain(row.api_key as string);
      }
    });

    it('works without a body and on both slash variants', async () => {
      for (const path of ['/api/v0/endptjobs/', '/api/v0/endptjobs']) {
        const response = await api.http().get(path).set(alice.auth);
        expect(response.status).toBe(200);
        expect(response.body.success).toBe(true);
        expect(Array.isArray(response.body.results)).toBe(true);
      }
    });

    it('requires authentication', async () => {
      const response = await api.http().get('/api/v0/endptjobs/');
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      });
    });
  });

  describe('update endpoint', () => {
    let id: number;

    beforeAll(async () => {
      const response = await create(alice, {
        endpoint_name: 'update-me',
        cold_workers: 2,
        max_workers: 6,
        max_queue_time: 20.0,
        target_queue_time: 5.0,
      });
      id = response.body.result;
    });

    it('treats null as unchanged and sets only what was given (exact 14-key client body)', async () => {
      const original = await rowOf(alice, id);
      const response = await put(
        alice,
        id,
        cliUpdateBody(id, { min_load: 3.0, endpoint_state: 'suspended' }),
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
      expect(await rowOf(alice, id)).toEqual({
        ...original,
        min_load: 3,
        endpoint_state: 'suspended',
      });
    });

    it('changes nothing for an all-null body, an empty body or no body at all', async () => {
      const original = await rowOf(alice, id);
      const storedBefore = await storedRow(id);
      for (const call of [
        put(alice, id, cliUpdateBody(id)),
        put(alice, id, '{}'),
        api.http().put(`/api/v0/endptjobs/${id}`).set(alice.auth),
      ]) {
        const response = await call;
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ success: true });
      }
      expect(await rowOf(alice, id)).toEqual(original);
      expect(await storedRow(id)).toEqual(storedBefore);
    });

    it('leaves absent fields unchanged too (a body with only the changed field)', async () => {
      const original = await rowOf(alice, id);
      await put(alice, id, '{"cold_mult": 3.5}').expect(200);
      expect(await rowOf(alice, id)).toEqual({ ...original, cold_mult: 3.5 });
      await put(alice, id, '{"cold_mult": 2.5}').expect(200);
    });

    it('re-validates the merged result against the current options', async () => {
      const original = await rowOf(alice, id);
      const tooFewWorkers = await put(alice, id, cliUpdateBody(id, { max_workers: 1 }));
      expect(tooFewWorkers.status).toBe(400);
      expect(tooFewWorkers.body).toMatchObject({
        error: 'invalid_args',
        msg: expect.stringContaining('cold_workers'),
      });
      const queueTooShort = await put(alice, id, cliUpdateBody(id, { max_queue_time: 4.0 }));
      expect(queueTooShort.status).toBe(400);
      expect(queueTooShort.body.msg).toContain('target_queue_time');
      expect(await rowOf(alice, id)).toEqual(original);
      const together = await put(alice, id, cliUpdateBody(id, { max_workers: 1, cold_workers: 1 }));
      expect(together.status).toBe(200);
      expect(await rowOf(alice, id)).toMatchObject({ max_workers: 1, cold_workers: 1 });
    });

    it('validates endpoint_state and every option like create', async () => {
      for (const set of [
        { endpoint_state: 'paused' },
        { endpoint_state: 1 },
        { target_util: 1.1 },
        { min_load: 'NaN' },
        { endpoint_name: 'no spaces' },
        { extra_field: true },
      ]) {
        const response = await put(alice, id, cliUpdateBody(id, set));
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false, error: 'invalid_args' });
        expect(response.body.msg).toContain(Object.keys(set)[0]);
      }
      for (const state of ['active', 'suspended', 'stopped']) {
        await put(alice, id, cliUpdateBody(id, { endpoint_state: state })).expect(200);
        expect((await rowOf(alice, id))!.endpoint_state).toBe(state);
      }
    });

    it('refuses a body id that contradicts the path, and a malformed path id', async () => {
      const mismatch = await put(alice, id, cliUpdateBody(id + 1, { min_load: 9.0 }));
      expect(mismatch.status).toBe(400);
      expect(mismatch.body).toMatchObject({
        error: 'invalid_args',
        msg: expect.stringContaining('endptjob_id'),
      });
      const malformed = await put(alice, 'abc', cliUpdateBody(id));
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toBe('invalid_args');
    });

    it("answers 404 for another user's group and for an unknown one, changing nothing", async () => {
      const original = await rowOf(alice, id);
      for (const [user, target] of [
        [bob, id],
        [alice, 48999],
        [alice, 99999999999],
      ] as const) {
        const response = await put(user, target, cliUpdateBody(target, { min_load: 99.0 }));
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          success: false,
          error: 'not_found',
          msg: `Endpoint group ${target} not found`,
        });
      }
      expect(await rowOf(alice, id)).toEqual(original);
    });
  });

  describe('delete endpoint', () => {
    it("answers 404 for another user's group, then deletes the owner's with the client's body", async () => {
      const { body } = await create(alice, { endpoint_name: 'delete-me' });
      const id = body.result as number;
      const foreign = await del(bob, id);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ success: false, error: 'not_found' });
      expect(await rowOf(alice, id)).toBeDefined();

      const response = await del(alice, id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
      expect(await rowOf(alice, id)).toBeUndefined();
      expect((await del(alice, id)).status).toBe(404);
    });

    it('refuses unknown fields and an endptjob_id that contradicts the path, deleting nothing', async () => {
      const { body } = await create(alice, {});
      const id = body.result as number;
      const unknown = await del(alice, id, '{"nope": 1}');
      const mismatch = await del(alice, id, `{"client_id": "me", "endptjob_id": ${id + 1}}`);
      const malformed = await del(alice, '0', '{"client_id": "me"}');
      for (const [response, field] of [
        [unknown, 'nope'],
        [mismatch, 'endptjob_id'],
        [malformed, 'id'],
      ] as const) {
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: 'invalid_args',
          msg: expect.stringContaining(`${field}:`),
        });
      }
      expect(await rowOf(alice, id)).toBeDefined();
      await del(alice, id, '{}').expect(200);
      expect(await rowOf(alice, id)).toBeUndefined();
    });

    it('deletes without a body and without the trailing slash', async () => {
      const { body } = await create(alice, {});
      const response = await api.http().delete(`/api/v0/endptjobs/${body.result}`).set(alice.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
      expect(await rowOf(alice, body.result)).toBeUndefined();
    });
  });

  describe('fixtures', () => {
    it('loads endpoint_groups idempotently on explicit ids, validated like the API', async () => {
      const section = [
        {
          id: FIXTURE.a,
          user_id: alice.id,
          endpoint_name: 'fixture-ep',
          api_key: 'fixture-worker-key',
        },
        {
          id: FIXTURE.b,
          user_id: alice.id,
          endpoint_name: 'fixture-ep',
          max_workers: 8,
          cold_workers: 1,
          endpoint_state: 'stopped',
        },
      ];
      await loadFixtures(api, { endpoint_groups: section });
      const keyOfB = (await rowOf(alice, FIXTURE.b))!.api_key;
      await loadFixtures(api, { endpoint_groups: section });
      expect(await rowOf(alice, FIXTURE.a)).toMatchObject({
        endpoint_name: 'fixture-ep',
        api_key: 'fixture-worker-key',
        max_workers: 20,
        endpoint_state: 'active',
      });
      expect(await rowOf(alice, FIXTURE.b)).toMatchObject({
        max_workers: 8,
        cold_workers: 1,
        endpoint_state: 'stopped',
        api_key: keyOfB,
      });
      // Alice's groups made through the API may hold any generated id (1,000,000 on a fresh
      // database): a refused load must leave the list exactly as it was.
      const before = (await list(alice)).map((row) => row.id);
      for (const bad of [
        { id: 40003, user_id: alice.id, target_util: 2 },
        { id: 40003, user_id: alice.id, max_worker: 2 },
        { id: 40003, user_id: alice.id, endpoint_state: 'paused' },
        { id: 1_000_000, user_id: alice.id },
      ]) {
        await expect(loadFixtures(api, { endpoint_groups: [bad] })).rejects.toMatchObject({
          code: 'bad_request',
        });
      }
      const ids = (await list(alice)).map((row) => row.id);
      expect(ids).not.toContain(40003);
      expect(ids).toEqual(before);
    });
  });

  it('is described in the OpenAPI document', async () => {
    const response = await api.http().get('/api/v0/openapi.json');
    expect(Object.keys(response.body.paths['/api/v0/endptjobs'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
    expect(Object.keys(response.body.paths['/api/v0/endptjobs/{id}'])).toEqual(
      expect.arrayContaining(['put', 'delete']),
    );
  });
});

describe('autoscaling: create rate limit', () => {
  let api: TestApi;

  const groupsOf = async (user: TestUser): Promise<number[]> => {
    const response = await api.http().get('/api/v0/endptjobs/').set(user.auth).expect(200);
    return response.body.results.map((row: { id: number }) => row.id);
  };

  const create = (user: TestUser, body: string) =>
    api
      .http()
      .post('/api/v0/endptjobs/')
      .set(user.auth)
      .set('Content-Type', 'application/json')
      .send(body);

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: 'on' });
  });

  afterAll(() => api.close());

  it('answers a second create within 4.0 s with 429 and the detail body, creating nothing', async () => {
    const user = await createTestUser(api);
    const first = await create(user, CLI_CREATE_DEFAULTS);
    expect(first.status).toBe(200);
    const second = await create(user, CLI_CREATE_DEFAULTS);
    expect(second.status).toBe(429);
    expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=4.0' });
    expect(await groupsOf(user)).toEqual([first.body.result]);
    // Only create is limited: list, update and delete answer normally meanwhile.
    await api
      .http()
      .put(`/api/v0/endptjobs/${first.body.result}/`)
      .set(user.auth)
      .send({ min_load: 1.0 })
      .expect(200);
    await api.http().delete(`/api/v0/endptjobs/${first.body.result}/`).set(user.auth).expect(200);
  });

  it('counts a refused create too, and limits each user separately', async () => {
    const user = await createTestUser(api);
    const neighbour = await createTestUser(api);
    const refused = await create(user, '{"target_util": 2.0}');
    expect(refused.status).toBe(400);
    const second = await create(user, CLI_CREATE_DEFAULTS);
    expect(second.status).toBe(429);
    expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=4.0' });
    expect(await groupsOf(user)).toEqual([]);
    const other = await create(neighbour, CLI_CREATE_DEFAULTS);
    expect(other.status).toBe(200);
  });
});
