import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { OwnRedis } from '@test/support/own-redis';
import {
  dataSourceOptions,
  RedisConnectionFactory,
  TransactionalEntityManager,
} from '@app/platform';
import { testCredentialRecord } from '../../testing/accounts-kit';
import { credentialCacheContract } from '../../testing/credential-cache.contract';
import { CredentialCacheSettings, RedisCredentialCache } from './redis-credential-cache';

/** The cache against a real Redis of its own (it kills pub/sub clients). */
describe('RedisCredentialCache (real Redis pub/sub)', () => {
  let redis: OwnRedis;
  let dataSource: DataSource;
  let tx: TransactionalEntityManager;
  let factories: RedisConnectionFactory[] = [];
  let admin: Redis;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    tx = new TransactionalEntityManager(dataSource);
    admin = new Redis(redis.url);
  });
  afterEach(async () => {
    await Promise.all(factories.map((factory) => factory.closeAll()));
    factories = [];
  });
  afterAll(async () => {
    admin.disconnect();
    await dataSource.destroy();
    await redis.stop();
  });

  function cache(settings: Partial<CredentialCacheSettings> = {}): RedisCredentialCache {
    const factory = new RedisConnectionFactory(redis.url);
    factories.push(factory);
    return new RedisCredentialCache(factory, factory.createCommandConnection('test'), tx, {
      ttlMs: 60_000,
      maxEntries: 100,
      channel: 'credential-changes:test',
      enabled: true,
      ...settings,
    });
  }

  const key = (id: number, userId = id) => testCredentialRecord(id, userId);

  /** Subscribes (recall starts it) and waits until records are kept. */
  async function listening(c: RedisCredentialCache): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      c.recall('probe');
      c.remember('probe', key(0), c.generation());
      if (c.recall('probe')) return;
      if (Date.now() > deadline) throw new Error('never subscribed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function until(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  credentialCacheContract(async () => ({
    cache: () => cache(),
    ready: (c) => listening(c as RedisCredentialCache),
  }));

  it('keeps nothing before it has subscribed', async () => {
    const c = cache();
    c.remember('a', key(1), c.generation());
    expect(c.recall('a')).toBeUndefined();
    await listening(c);
    c.remember('a', key(1), c.generation());
    expect(c.recall('a')?.id).toBe(1);
  });

  it('is bounded: the least recently used record goes first', async () => {
    const c = cache({ maxEntries: 3 });
    await listening(c); // 'probe' is the first of the three
    c.remember('a', key(1), c.generation());
    c.remember('b', key(2), c.generation());
    expect(c.recall('probe')).toBeDefined(); // now the most recent
    c.remember('c', key(3), c.generation());
    expect(c.recall('a')).toBeUndefined();
    expect([c.recall('b')?.id, c.recall('c')?.id, c.recall('probe')?.id]).toEqual([2, 3, 0]);
  });

  it('serves a record no longer than its TTL', async () => {
    const c = cache({ ttlMs: 200 });
    await listening(c);
    c.remember('a', key(1), c.generation());
    expect(c.recall('a')?.id).toBe(1);
    await until(() => c.recall('a') === undefined, 'the TTL');
  });

  it("forgets at once here, and on another process's cache when the message arrives", async () => {
    const [here, there] = [cache(), cache()];
    await Promise.all([listening(here), listening(there)]);
    for (const c of [here, there]) {
      c.remember('a', key(1, 7), c.generation());
      c.remember('b', key(2, 8), c.generation());
    }
    here.userChanged(7);
    expect(here.recall('a')).toBeUndefined();
    await until(() => there.recall('a') === undefined, 'the announcement');
    expect(there.recall('b')?.id).toBe(2);
    here.allChanged();
    await until(() => there.recall('b') === undefined, 'the announcement to all');
  });

  it('stops serving when its subscription drops, and forgets what it held', async () => {
    const c = cache();
    await listening(c);
    c.remember('a', key(1), c.generation());
    await admin.client('KILL', 'TYPE', 'pubsub');
    await until(() => c.recall('probe') === undefined, 'the drop');
    await listening(c);
    expect(c.recall('a')).toBeUndefined();
  });
});
