import { spawnApi, SpawnedProcess, startApi, TestApi } from './api';
import { OwnRedis } from './own-redis';

/**
 * Two api processes on the shared PostgreSQL and a Redis of their own (so their credential
 * cache announcements stay private to the file): `api` in process, where a change is made,
 * and `replica` spawned, which must notice it.
 */
export interface TwoReplicas {
  api: TestApi;
  replica: SpawnedProcess;
  close(): Promise<void>;
}

export async function startTwoReplicas(): Promise<TwoReplicas> {
  const redis = await OwnRedis.start();
  const api = await startApi({ REDIS_URL: redis.url });
  const replica = await spawnApi({ REDIS_URL: redis.url, RUN_WORKER: 'false', LOG_LEVEL: 'warn' });
  return {
    api,
    replica,
    close: async () => {
      await replica.stop();
      await api.close();
      await redis.stop();
    },
  };
}

/** The status `path` answers to a Bearer `key` on the api at `baseUrl`. */
export async function statusOn(baseUrl: string, key: string, path: string): Promise<number> {
  return (await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } })).status;
}

/**
 * Asks `baseUrl` until `path` answers `status` to `key`; how long after `since` that was.
 * Gives up (returning the time so far) at `giveUpMs`, so a bound the test asserts fails
 * with a number rather than a timeout.
 */
export async function answeredAfter(
  baseUrl: string,
  key: string,
  path: string,
  status: number,
  since: number,
  giveUpMs: number,
): Promise<number> {
  for (;;) {
    const seen = await statusOn(baseUrl, key, path);
    const elapsed = Date.now() - since;
    if (seen === status || elapsed > giveUpMs) return elapsed;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
