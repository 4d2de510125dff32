import { createTestUser, startApi, TestApi } from '@test/support/api';

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
    const response = await api.http().get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v0\/users\/current",status="200"\} [1-9]/,
    );
    expect(response.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v0\/users\/current",status="403"\} [1-9]/,
    );
    for (const counter of [
      'tfa_verifications_total',
      'tfa_lockouts_total',
      'code_delivery_attempts_total',
      'rate_limit_refusals_total',
    ]) {
      expect(response.text).toContain(`# TYPE ${counter} counter`);
    }
    expect(response.text).toContain('process_resident_memory_bytes');
  });

  it('never puts credentials in labels', async () => {
    const user = await createTestUser(api);
    await api.http().get('/api/v0/users/current').set(user.auth);
    const response = await api.http().get('/metrics');
    expect(response.text).not.toContain(user.apiKey);
  });
});
