import { createKey, vastai } from '@test/support/access';
import { createTestUser, SpawnedProcess, TestApi } from '@test/support/api';
import { answeredAfter, startTwoReplicas, statusOn, TwoReplicas } from '@test/support/replicas';

/**
 * Deleting a key and resetting the main key hold on every replica within 1 s: two api
 * processes share PostgreSQL and Redis, the replica has the key in its credential cache
 * (it just served it), and the change is made through the other one.
 */
describe('key delete and reset across two api replicas', () => {
  const WITHIN_MS = 1_000;

  let replicas: TwoReplicas;
  let api: TestApi;
  let replica: SpawnedProcess;

  beforeAll(async () => {
    replicas = await startTwoReplicas();
    ({ api, replica } = replicas);
  });
  afterAll(() => replicas.close());

  const CURRENT = '/api/v0/users/current/';
  const refusedAfter = (key: string, since: number) =>
    answeredAfter(replica.url, key, CURRENT, 404, since, 10 * WITHIN_MS);

  /** The replica serves the key, so its credential cache holds it. */
  async function cachedOnReplica(key: string): Promise<void> {
    for (let i = 0; i < 3; i++) expect(await statusOn(replica.url, key, CURRENT)).toBe(200);
  }

  it('a deleted key is refused by the replica within 1 s', async () => {
    const user = await createTestUser(api);
    const doomed = await createKey(api, user, { name: 'doomed' });
    await cachedOnReplica(doomed.key);
    const response = await vastai(api, user, 'delete', `/api/v0/auth/apikeys/${doomed.id}/`);
    const started = Date.now();
    expect(response.status).toBe(200);
    expect(await statusOn(api.url, doomed.key, CURRENT)).toBe(404);
    expect(await refusedAfter(doomed.key, started)).toBeLessThan(WITHIN_MS);
  });

  it('a reset main key is refused by the replica within 1 s, and the new one is served there', async () => {
    const user = await createTestUser(api);
    await cachedOnReplica(user.apiKey);
    const response = await vastai(api, user, 'put', '/api/v0/commands/reset_apikey/', {
      client_id: 'me',
    });
    const started = Date.now();
    expect(response.status).toBe(200);
    expect(await statusOn(api.url, user.apiKey, CURRENT)).toBe(404);
    expect(await refusedAfter(user.apiKey, started)).toBeLessThan(WITHIN_MS);
    expect(await statusOn(replica.url, response.body.new_api_key, CURRENT)).toBe(200);
  });
});
