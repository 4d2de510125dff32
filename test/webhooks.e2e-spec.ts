import { DataSource } from 'typeorm';
import { UnitOfWork } from '@app/platform';
import { WebhookOutbox } from '@app/spend-guards';
import {
  createTestUser,
  spawnApi,
  SpawnedProcess,
  startApi,
  TestApi,
  TestUser,
} from '@test/support/api';
import { spawnWorker, WorkerProcess } from '@test/support/delivery';
import { OwnRedis } from '@test/support/own-redis';
import { waitFor } from '@test/support/wait';
import {
  ReceivedWebhook,
  verifyGpumktWebhook,
  WebhookReceiver,
} from '@test/support/webhook-receiver';

/** Small timings, so retries and timeouts happen within a test. */
const WEBHOOK_ENV: Record<string, string> = {
  RUN_WORKER: 'false',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_BACKOFF_MS: '200',
  WEBHOOK_MAX_ATTEMPTS: '3',
  WEBHOOK_SWEEP_SECONDS: '1',
};

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  last_attempt_at: number | null;
  delivered_at: number | null;
}

describe('webhooks: endpoints and signed deliveries', () => {
  let api: TestApi;
  let worker: WorkerProcess;
  let receiver: WebhookReceiver;
  let redis: OwnRedis;
  let user: TestUser;
  let stranger: TestUser;
  const owners: number[] = [];

  const call = (
    method: 'get' | 'post' | 'delete',
    path: string,
    caller: TestUser | null = user,
    body?: unknown,
  ) => {
    const request = api.http()[method](path);
    if (caller) request.set(caller.auth);
    return body === undefined
      ? request
      : request.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  const create = async (fields: Record<string, unknown>, caller: TestUser = user) => {
    const response = await call('post', '/api/v0/webhooks/', caller, fields);
    expect(response.status).toBe(200);
    return response.body.webhook as { id: string; secret: string; url: string };
  };

  const deliveriesOf = async (id: string, caller: TestUser = user): Promise<DeliveryRow[]> => {
    const response = await call('get', `/api/v0/webhooks/${id}/deliveries/`, caller);
    expect(response.status).toBe(200);
    return response.body.deliveries;
  };

  const settled = (id: string, deliveryId: string, what: string) =>
    waitFor(
      async () => (await deliveriesOf(id)).find((row) => row.id === deliveryId),
      (row) => row !== undefined && row.status !== 'pending',
      { what },
    ) as Promise<DeliveryRow>;

  const newUser = async () => {
    const created = await createTestUser(api);
    owners.push(created.id);
    return created;
  };

  beforeAll(async () => {
    // A Redis of its own: the apis of other test files running at the same time have
    // workers too, which would take these deliveries' jobs and run them with their own
    // timeout and backoff.
    [receiver, redis] = await Promise.all([WebhookReceiver.start(), OwnRedis.start()]);
    WEBHOOK_ENV.REDIS_URL = redis.url;
    api = await startApi(WEBHOOK_ENV);
    worker = await spawnWorker({ ...WEBHOOK_ENV, LOG_LEVEL: 'debug' });
    user = await newUser();
    stranger = await newUser();
  }, 120_000);

  // The endpoints' deliveries go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await api.app
      .get(DataSource)
      .query(`DELETE FROM spend_guard_webhooks WHERE owner_key = ANY($1)`, [owners]);
    await worker?.kill('SIGTERM');
    await receiver?.close();
    await api?.close();
    await redis?.stop();
  });

  it('registers an endpoint with every event type, its secret shown once and stored encrypted', async () => {
    const response = await call('post', '/api/v0/webhooks/', user, {
      url: receiver.url('/created'),
      description: 'on-call bot',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      webhook: {
        id: expect.stringMatching(/^wh_[A-Za-z0-9]+$/),
        url: receiver.url('/created'),
        events: ['budget.threshold_crossed', 'webhook.test'],
        description: 'on-call bot',
        created_at: expect.any(Number),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      },
    });
    const { id, secret } = response.body.webhook;
    const { secret: _secret, ...shown } = response.body.webhook;
    expect((await call('get', `/api/v0/webhooks/${id}/`)).body).toEqual({
      success: true,
      webhook: shown,
    });
    const listed = await call('get', '/api/v0/webhooks/');
    expect(listed.body.webhooks).toContainEqual(shown);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const [row] = await api.app
      .get(DataSource)
      .query(`SELECT secret_ciphertext FROM spend_guard_webhooks WHERE id = $1`, [id]);
    expect(row.secret_ciphertext).not.toContain(secret);
    expect(row.secret_ciphertext).not.toContain(secret.slice('whsec_'.length));
  });

  it('signs a test delivery so that the documented recipe verifies it, and nothing else', async () => {
    const webhook = await create({ url: receiver.url('/signed') });
    const queued = await call('post', `/api/v0/webhooks/${webhook.id}/test/`);
    expect(queued.status).toBe(200);
    expect(queued.body).toEqual({
      success: true,
      delivery: {
        id: expect.any(String),
        event_id: expect.stringMatching(/^evt_/),
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        created_at: expect.any(Number),
        last_attempt_at: null,
        delivered_at: null,
      },
    });
    const delivery = queued.body.delivery;
    const [received] = await waitFor(
      () => receiver.at('/signed'),
      (list) => list.length === 1,
      { what: 'the signed delivery' },
    );
    expect(received.headers['gpumkt-webhook-id']).toBe(delivery.id);
    expect(received.headers['gpumkt-webhook-event']).toBe('webhook.test');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['gpumkt-webhook-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(JSON.parse(received.rawBody)).toEqual({
      id: delivery.event_id,
      type: 'webhook.test',
      created_at: delivery.created_at,
      data: { webhook_id: webhook.id },
    });
    const sentAt = Number(received.headers['gpumkt-webhook-timestamp']);
    expect(verifyGpumktWebhook(webhook.secret, received.headers, received.rawBody)).toBe(true);
    expect(verifyGpumktWebhook(`${webhook.secret}x`, received.headers, received.rawBody)).toBe(
      false,
    );
    expect(verifyGpumktWebhook(webhook.secret, received.headers, `${received.rawBody} `)).toBe(
      false,
    );
    expect(
      verifyGpumktWebhook(webhook.secret, received.headers, received.rawBody, sentAt + 301),
    ).toBe(false);
    const row = await settled(webhook.id, delivery.id, 'the test delivery to succeed');
    expect(row).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      last_status_code: 204,
      last_error: null,
    });
    expect(row.delivered_at).toBe(row.last_attempt_at);
  });

  it('retries a receiver that answers 500 twice: one delivery, succeeded on its third attempt', async () => {
    receiver.on('/flaky', (_request, count) => (count <= 2 ? 500 : 200));
    const webhook = await create({ url: receiver.url('/flaky') });
    const delivery = (await call('post', `/api/v0/webhooks/${webhook.id}/test/`)).body.delivery;
    const row = await settled(webhook.id, delivery.id, 'the flaky delivery to settle');
    expect(row).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      last_status_code: 200,
      last_error: null,
    });
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
    const requests = receiver.at('/flaky');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['gpumkt-webhook-id']))).toEqual(
      new Set([delivery.id]),
    );
    expect(new Set(requests.map((request) => request.rawBody)).size).toBe(1);
  });

  it('never makes the writer wait for a receiver that hangs; the attempts time out and are retried', async () => {
    receiver.on('/hang', () => 'hang');
    const webhook = await create({ url: receiver.url('/hang') });
    const started = Date.now();
    const queued = await call('post', `/api/v0/webhooks/${webhook.id}/test/`);
    const tookMs = Date.now() - started;
    expect(queued.status).toBe(200);
    // The receiver holds every attempt for WEBHOOK_TIMEOUT_MS (1 s): the route did not wait.
    expect(tookMs).toBeLessThan(1000);

    // An event recorded in-process, as budget alerts record theirs: the writer's unit of
    // work and dispatch end while the receiver still holds the first attempt.
    const outbox = api.app.get(WebhookOutbox);
    const uow = api.app.get(UnitOfWork);
    const recordedAt = Date.now();
    const ids = await uow.run(() =>
      outbox.record(user.id, {
        id: 'evt_hang_budget',
        type: 'budget.threshold_crossed',
        createdAt: new Date(),
        data: { budget_id: 1 },
      }),
    );
    await outbox.dispatch(ids);
    expect(Date.now() - recordedAt).toBeLessThan(1000);

    const test = await settled(webhook.id, queued.body.delivery.id, 'the hanging delivery to fail');
    expect(test).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_status_code: null,
      last_error: 'timed out after 1000 ms',
      delivered_at: null,
    });
    expect(
      receiver.at('/hang').filter((r) => r.headers['gpumkt-webhook-id'] === test.id),
    ).toHaveLength(3);
  });

  it('re-sends a delivery: a new delivery of the same event, same body, its own id', async () => {
    const webhook = await create({ url: receiver.url('/resend') });
    const first = (await call('post', `/api/v0/webhooks/${webhook.id}/test/`)).body.delivery;
    await settled(webhook.id, first.id, 'the first delivery');
    const response = await call(
      'post',
      `/api/v0/webhooks/${webhook.id}/deliveries/${first.id}/resend/`,
    );
    expect(response.status).toBe(200);
    const again = response.body.delivery;
    expect(again).toMatchObject({ event_id: first.event_id, status: 'pending', attempts: 0 });
    expect(again.id).not.toBe(first.id);
    await settled(webhook.id, again.id, 'the re-sent delivery');
    const [a, b] = receiver.at('/resend');
    expect(b.rawBody).toBe(a.rawBody);
    expect([a.headers['gpumkt-webhook-id'], b.headers['gpumkt-webhook-id']]).toEqual([
      first.id,
      again.id,
    ]);
    expect(verifyGpumktWebhook(webhook.secret, b.headers, b.rawBody)).toBe(true);
    expect((await deliveriesOf(webhook.id)).map((row) => row.id)).toEqual([again.id, first.id]);
  });

  it("delivers an owner's event to its endpoints subscribed to the type only", async () => {
    const owner = await newUser();
    const budgets = await create(
      { url: receiver.url('/budgets'), events: ['budget.threshold_crossed'] },
      owner,
    );
    const tests = await create(
      { url: receiver.url('/tests-only'), events: ['webhook.test'] },
      owner,
    );
    const outbox = api.app.get(WebhookOutbox);
    const ids = await api.app.get(UnitOfWork).run(() =>
      outbox.record(owner.id, {
        id: 'evt_budget_subscribed',
        type: 'budget.threshold_crossed',
        createdAt: new Date(1767225600_000),
        data: { budget_id: 42, threshold_percent: 80 },
      }),
    );
    expect(ids).toHaveLength(1);
    await outbox.dispatch(ids);
    const [received] = await waitFor(
      () => receiver.at('/budgets'),
      (list) => list.length === 1,
      { what: 'the budget event' },
    );
    expect(JSON.parse(received.rawBody)).toEqual({
      id: 'evt_budget_subscribed',
      type: 'budget.threshold_crossed',
      created_at: 1767225600,
      data: { budget_id: 42, threshold_percent: 80 },
    });
    expect(received.headers['gpumkt-webhook-event']).toBe('budget.threshold_crossed');
    expect(verifyGpumktWebhook(budgets.secret, received.headers, received.rawBody)).toBe(true);
    expect(await deliveriesOf(tests.id, owner)).toEqual([]);
  });

  it('queues again, by the sweep, a delivery recorded but never queued (a crash before the queue)', async () => {
    const owner = await newUser();
    await create({ url: receiver.url('/swept') }, owner);
    // Recorded and committed, never dispatched: only the worker's sweep can queue it.
    await api.app.get(UnitOfWork).run(() =>
      api.app.get(WebhookOutbox).record(owner.id, {
        id: 'evt_swept',
        type: 'webhook.test',
        createdAt: new Date(),
        data: {},
      }),
    );
    const [received] = await waitFor(
      () => receiver.at('/swept'),
      (list) => list.length === 1,
      { what: 'the swept delivery' },
    );
    expect(JSON.parse(received.rawBody).id).toBe('evt_swept');
  });

  it('signs with the rotated secret from the rotation on', async () => {
    const webhook = await create({ url: receiver.url('/rotated') });
    const response = await call('post', `/api/v0/webhooks/${webhook.id}/rotate_secret/`);
    expect(response.status).toBe(200);
    const rotated = response.body.webhook;
    expect(rotated).toMatchObject({ id: webhook.id, url: webhook.url });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    await call('post', `/api/v0/webhooks/${webhook.id}/test/`);
    const [received] = await waitFor(
      () => receiver.at('/rotated'),
      (list) => list.length === 1,
      { what: 'the delivery after the rotation' },
    );
    expect(verifyGpumktWebhook(rotated.secret, received.headers, received.rawBody)).toBe(true);
    expect(verifyGpumktWebhook(webhook.secret, received.headers, received.rawBody)).toBe(false);
  });

  it('deletes an endpoint with its delivery log', async () => {
    const webhook = await create({ url: receiver.url('/deleted') });
    const delivery = (await call('post', `/api/v0/webhooks/${webhook.id}/test/`)).body.delivery;
    await settled(webhook.id, delivery.id, 'the delivery before the delete');
    expect((await call('delete', `/api/v0/webhooks/${webhook.id}/`)).body).toEqual({
      success: true,
    });
    expect((await call('get', `/api/v0/webhooks/${webhook.id}/`)).status).toBe(404);
    const rows = await api.app
      .get(DataSource)
      .query(`SELECT id FROM spend_guard_webhook_deliveries WHERE webhook_id = $1`, [webhook.id]);
    expect(rows).toEqual([]);
  });

  it('refuses every malformed body and URL with a 400 in the house shape, storing nothing', async () => {
    const owner = await newUser();
    const long = `http://127.0.0.1/${'x'.repeat(2048)}`;
    const cases: [unknown, string, string | null][] = [
      [
        { url: 'http://user:pw@127.0.0.1/' },
        'webhook_url_invalid',
        'url must not contain credentials',
      ],
      [
        { url: 'http://127.0.0.1/in#frag' },
        'webhook_url_invalid',
        'url must not contain a fragment',
      ],
      [{ url: long }, 'webhook_url_invalid', 'url must be at most 2048 characters'],
      [
        { url: 'ftp://127.0.0.1/' },
        'webhook_url_invalid',
        'url must be an absolute http or https URL',
      ],
      [
        { url: 'not a url' },
        'webhook_url_invalid',
        'url must not contain spaces or control characters',
      ],
      [{ url: '' }, 'webhook_url_invalid', 'url must not be empty'],
      [
        { url: 'http://127.0.0.1/', events: [] },
        'webhook_events_invalid',
        'events must name at least one event type',
      ],
      [{ url: 'http://127.0.0.1/', events: ['budget.exceeded'] }, 'webhook_events_invalid', null],
      [
        { url: 'http://127.0.0.1/', events: ['webhook.test', 'webhook.test'] },
        'webhook_events_invalid',
        'events must not repeat an event type',
      ],
      [
        { url: 'http://127.0.0.1/', description: 'a\nb' },
        'webhook_description_invalid',
        'description must not contain control characters',
      ],
      [
        { url: 'http://127.0.0.1/', description: 'x'.repeat(201) },
        'webhook_description_invalid',
        'description must be at most 200 characters',
      ],
      [{}, 'bad_request', null],
      [{ url: 5 }, 'bad_request', null],
      [{ url: 'http://127.0.0.1/', events: 'webhook.test' }, 'bad_request', null],
      [{ url: 'http://127.0.0.1/', events: [1] }, 'bad_request', null],
      [{ url: 'http://127.0.0.1/', secret: 'mine' }, 'bad_request', null],
      [[], 'bad_request', null],
    ];
    for (const [body, error, msg] of cases) {
      const response = await call('post', '/api/v0/webhooks/', owner, body);
      expect([body, response.status]).toEqual([body, 400]);
      expect(response.body).toEqual({ success: false, error, msg: msg ?? expect.any(String) });
    }
    const malformed = await api
      .http()
      .post('/api/v0/webhooks/')
      .set(owner.auth)
      .set('Content-Type', 'application/json')
      .send('{"url":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false });
    const webhook = await create({ url: receiver.url('/refusals') }, owner);
    for (const path of ['rotate_secret/', 'test/']) {
      const response = await call('post', `/api/v0/webhooks/${webhook.id}/${path}`, owner, {
        x: 1,
      });
      expect([path, response.status, response.body.error]).toEqual([path, 400, 'bad_request']);
    }
    expect((await call('get', '/api/v0/webhooks/', owner)).body.webhooks).toHaveLength(1);
  });

  it('refuses an eleventh endpoint of one owner', async () => {
    const owner = await newUser();
    for (let i = 0; i < 10; i += 1) await create({ url: receiver.url(`/limit/${i}`) }, owner);
    const response = await call('post', '/api/v0/webhooks/', owner, {
      url: receiver.url('/limit/11'),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'webhook_limit_reached',
      msg: 'at most 10 webhooks per owner; delete one first',
    });
    expect((await call('get', '/api/v0/webhooks/', owner)).body.webhooks).toHaveLength(10);
  });

  it("answers 404 for another owner's endpoint and delivery on every route, changing nothing", async () => {
    const webhook = await create({ url: receiver.url('/private') });
    const delivery = (await call('post', `/api/v0/webhooks/${webhook.id}/test/`)).body.delivery;
    await settled(webhook.id, delivery.id, 'the private delivery');
    const notFound = { success: false, error: 'not_found', msg: 'no such webhook' };
    const base = `/api/v0/webhooks/${webhook.id}`;
    for (const [method, path] of [
      ['get', `${base}/`],
      ['get', `${base}/deliveries/`],
      ['delete', `${base}/`],
      ['post', `${base}/rotate_secret/`],
      ['post', `${base}/test/`],
      ['post', `${base}/deliveries/${delivery.id}/resend/`],
      ['get', '/api/v0/webhooks/wh_unknown/'],
      ['get', '/api/v0/webhooks/12/'],
    ] as const) {
      const response = await call(method, path, stranger);
      expect([method, path, response.status, response.body]).toEqual([method, path, 404, notFound]);
    }
    for (const deliveryId of ['00000000-0000-0000-0000-000000000000', 'nope']) {
      const response = await call('post', `${base}/deliveries/${deliveryId}/resend/`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error: 'not_found',
        msg: 'no such delivery',
      });
    }
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
    expect((await call('get', `${base}/`)).status).toBe(200);
  });

  it('needs a credential', async () => {
    const response = await call('get', '/api/v0/webhooks/', null);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'This action requires login.',
    });
  });

  it("writes no secret, signature or body in the api's or the worker's output", async () => {
    let spawned: SpawnedProcess | undefined;
    try {
      spawned = await spawnApi({ ...WEBHOOK_ENV, LOG_LEVEL: 'debug' });
      const owner = await newUser();
      const post = (path: string, body?: unknown) =>
        fetch(`${spawned!.url}${path}`, {
          method: 'POST',
          headers: { ...owner.auth, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(
          (response) => response.json() as Promise<{ webhook: { id: string; secret: string } }>,
        );
      receiver.on('/quiet?token=q', (_request, count) => (count === 1 ? 500 : 204));
      const created = (await post('/api/v0/webhooks/', { url: receiver.url('/quiet?token=q') }))
        .webhook;
      const rotated = (await post(`/api/v0/webhooks/${created.id}/rotate_secret/`)).webhook;
      await post(`/api/v0/webhooks/${created.id}/test/`);
      const received = await waitFor(
        () => receiver.at('/quiet?token=q'),
        (list) => list.length === 2,
        { what: 'two attempts at the quiet receiver' },
      );
      // The worker logged the failed first attempt: its output is not empty.
      await waitFor(
        () => worker.output.join('\n'),
        (text) => text.includes('attempt 1: HTTP 500'),
        { what: "the worker's line about the failed attempt" },
      );
      const output = [...spawned.output, ...worker.output].join('\n');
      const secrets: string[] = [created.secret, rotated.secret];
      for (const request of received as ReceivedWebhook[]) {
        secrets.push(String(request.headers['gpumkt-webhook-signature']).slice(3));
        secrets.push(request.rawBody);
      }
      for (const secret of secrets) expect(output).not.toContain(secret);
      expect(output).not.toContain('token=q');
    } finally {
      await spawned?.stop();
    }
  });

  describe('with rate limits on', () => {
    let limited: TestApi;

    beforeAll(async () => {
      limited = await startApi({
        ...WEBHOOK_ENV,
        RATE_LIMITS: 'on',
        RATE_LIMIT_WEBHOOKS_CREATE: '600',
      });
    });

    afterAll(() => limited.close());

    it('answers a second create within RATE_LIMIT_WEBHOOKS_CREATE with 429, creating nothing', async () => {
      const owner = await newUser();
      const post = (url: string) =>
        limited
          .http()
          .post('/api/v0/webhooks/')
          .set(owner.auth)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ url }));
      expect((await post(receiver.url('/rl/1'))).status).toBe(200);
      const second = await post(receiver.url('/rl/2'));
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=600.0' });
      expect((await call('get', '/api/v0/webhooks/', owner)).body.webhooks).toHaveLength(1);
    });
  });
});
