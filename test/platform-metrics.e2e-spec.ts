import { createTestUser, startApi, TestApi } from '@test/support/api';
import { twilioEnv } from '@test/support/delivery';
import { FakeTwilio, startFakeTwilio } from '@test/support/fake-twilio';
import { OwnRedis } from '@test/support/own-redis';
import { enableTotp, testPhone, totpCode } from '@test/support/tfa';
import { sample, scrape } from '@test/support/metrics';
import { waitFor } from '@test/support/wait';
import { sendEmail, sendSms, tfaLogin } from '@test/support/tfa-requests';

/** Scrapes until `moved` holds (the worker counts after the request has its answer). */
async function scrapeUntil(
  api: TestApi,
  moved: (text: string) => boolean,
  what: string,
): Promise<string> {
  return waitFor(() => scrape(api), moved, { what, intervalMs: 50 });
}

describe('GET /metrics (Prometheus)', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });

  afterAll(() => api.close());

  it('exposes request histograms labelled by route template and status', async () => {
    const user = await createTestUser(api);
    await api.http().get('/api/v0/users/current').set(user.auth).expect(200);
    await api.http().get('/api/v0/users/current').expect(403);
    const response = await fetch(`${api.metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v0\/users\/current",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v0\/users\/current",status="403"\} [1-9]/,
    );
    for (const counter of [
      'tfa_verifications_total',
      'tfa_lockouts_total',
      'code_delivery_attempts_total',
      'code_delivery_failures_total',
      'rate_limit_refusals_total',
    ]) {
      expect(text).toContain(`# TYPE ${counter} counter`);
    }
    expect(text).toContain('# TYPE queue_jobs gauge');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('labels a route with parameters by its template, not by the ids in the URL', async () => {
    const user = await createTestUser(api);
    await api.http().delete('/api/v0/endptjobs/987654321/').set(user.auth).expect(404);
    const text = await scrape(api);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/v0/endptjobs/:id',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('987654321');
  });

  it('counts 2FA verifications by method and outcome, and lockouts', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const before = await scrape(api);
    const valid = [-1, 0, 1].map((step) => totpCode(totp.secret, step));
    const wrong = ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code));
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const refused = await tfaLogin(api, user.auth, { tfa_method: 'totp', code: wrong });
      expect(refused.status).toBe(attempt < 5 ? 400 : 429);
    }
    await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[0] }).expect(200);
    const after = await scrape(api);
    const delta = (labels: Record<string, string>) =>
      sample(after, 'tfa_verifications_total', labels) -
      sample(before, 'tfa_verifications_total', labels);
    const failures = delta({ method: 'totp' }) - delta({ method: 'totp', outcome: 'success' });
    expect(failures).toBe(5);
    expect(delta({ method: 'backup_code', outcome: 'success' })).toBe(1);
    expect(
      sample(after, 'tfa_lockouts_total', { method: 'totp' }) -
        sample(before, 'tfa_lockouts_total', { method: 'totp' }),
    ).toBe(1);
  });

  it('counts rate-limit refusals by bucket', async () => {
    const limited = await startApi({ RATE_LIMITS: 'on' });
    try {
      const user = await createTestUser(limited);
      const unlist = () =>
        limited.http().post('/api/v0/volumes/unlist/').set(user.auth).send({ id: 987_650 });
      await unlist();
      expect((await unlist()).status).toBe(429);
      const text = await scrape(limited);
      expect(sample(text, 'rate_limit_refusals_total', { bucket: 'volumes_unlist' })).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it('never puts credentials in labels', async () => {
    const user = await createTestUser(api);
    await api.http().get('/api/v0/users/current').set(user.auth);
    expect(await scrape(api)).not.toContain(user.apiKey);
  });
});

describe('GET /metrics: code delivery', () => {
  let fake: FakeTwilio;
  let redis: OwnRedis;
  let api: TestApi;

  beforeAll(async () => {
    // A Redis of its own: on the shared one, another test file's worker (outbox provider)
    // could take this api's jobs, and this api's Twilio worker could take theirs.
    [fake, redis] = await Promise.all([startFakeTwilio(), OwnRedis.start()]);
    api = await startApi({ ...twilioEnv(fake), REDIS_URL: redis.url });
  });

  afterAll(async () => {
    await api?.close();
    await fake?.close();
    await redis?.stop();
  });

  it('counts delivery attempts by channel, provider and outcome, and abandoned deliveries', async () => {
    const user = await createTestUser(api);
    const delivered = testPhone();
    const rejected = testPhone();
    fake.rejectNumber(rejected);
    const before = await scrape(api);
    const attempts = (text: string, outcome: string) =>
      sample(text, 'code_delivery_attempts_total', { channel: 'sms', provider: 'twilio', outcome });
    const abandoned = (text: string) =>
      sample(text, 'code_delivery_failures_total', { channel: 'sms', provider: 'twilio' });

    const sent = await sendSms(api, user.auth, { phone_number: delivered });
    expect(sent.status).toBe(200);
    await scrapeUntil(
      api,
      (text) => attempts(text, 'sent') >= attempts(before, 'sent') + 1,
      'the sent attempt to be counted',
    );

    const other = await createTestUser(api);
    const refused = await sendSms(api, other.auth, { phone_number: rejected });
    expect(refused.status).toBe(400);
    const after = await scrapeUntil(
      api,
      (text) => abandoned(text) >= abandoned(before) + 1,
      'the abandoned delivery to be counted',
    );
    expect(abandoned(after)).toBe(abandoned(before) + 1);
    expect(attempts(after, 'rejected')).toBe(attempts(before, 'rejected') + 1);
  });
});

describe('GET /metrics: queue depth', () => {
  let redis: OwnRedis;
  let api: TestApi;

  beforeAll(async () => {
    // A Redis of its own: the job this test leaves waiting must not reach any other worker.
    redis = await OwnRedis.start();
    api = await startApi({
      REDIS_URL: redis.url,
      RUN_WORKER: 'false',
      DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0',
    });
  });

  afterAll(async () => {
    await api?.close();
    await redis?.stop();
  });

  it('reports the jobs waiting in the delivery queue', async () => {
    const user = await createTestUser(api);
    const depth = (text: string) =>
      sample(text, 'queue_jobs', { queue: 'code-delivery', state: 'waiting' });
    expect(depth(await scrape(api))).toBe(0);
    await sendEmail(api, user.auth, {}).expect(200);
    expect(depth(await scrape(api))).toBe(1);
  });
});
