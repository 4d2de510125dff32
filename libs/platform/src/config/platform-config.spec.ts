import { ConfigError } from './config-error';
import { Environment } from './environment';
import { loadPlatformConfig } from './platform-config';

const strongKeys = {
  SECRET_HMAC_KEY: 'x'.repeat(40),
  ENCRYPTION_KEYS: `1:${Buffer.alloc(32, 3).toString('base64')}`,
};

const services = {
  DATABASE_URL: 'postgres://app@db.internal:5432/gpumarket',
  REDIS_URL: 'redis://cache.internal:6379',
};

describe('loadPlatformConfig', () => {
  it('has working development defaults', () => {
    const config = loadPlatformConfig(new Environment({}));
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/gpumarket');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.migrationsRun).toBe(true);
    expect(config.rateLimits).toEqual({
      enabled: true,
      thresholds: {
        charges: 1.0,
        charges_export: 10.0,
        charges_summary: 1.0,
        volumes_unlist: 5.0,
        endpoint_groups_create: 4.0,
      },
    });
    expect(config.usingDevelopmentSecrets).toBe(true);
    expect(config.shutdownGraceMs).toBe(1_000);
  });

  it('refuses to start in production without secrets, naming each one', () => {
    const production = new Environment({ NODE_ENV: 'production', ...services });
    expect(() => loadPlatformConfig(production)).toThrow(ConfigError);
    try {
      loadPlatformConfig(production);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'SECRET_HMAC_KEY is required in production (at least 32 characters)',
        'ENCRYPTION_KEYS is required in production (at least 3 characters)',
      ]);
    }
  });

  it('refuses in production to fall back to local or embedded services', () => {
    expect(() =>
      loadPlatformConfig(
        new Environment({ NODE_ENV: 'production', ...strongKeys, EMBEDDED: 'true' }),
      ),
    ).toThrow(
      expect.objectContaining({
        problems: [
          'EMBEDDED is for development only; production needs DATABASE_URL and REDIS_URL',
          'DATABASE_URL is required in production',
          'REDIS_URL is required in production (or REDIS_CLUSTER_NODES, or REDIS_SENTINELS)',
        ],
      }),
    );
  });

  it('refuses an embedded api without its in-process worker', () => {
    expect(() =>
      loadPlatformConfig(new Environment({ EMBEDDED: 'true', RUN_WORKER: 'false' })),
    ).toThrow(/RUN_WORKER=false leaves codes undelivered in the embedded mode/);
  });

  it('starts in production with real secrets and its services named', () => {
    const config = loadPlatformConfig(
      new Environment({ NODE_ENV: 'production', ...strongKeys, ...services }),
    );
    expect(config.isProduction).toBe(true);
    expect(config.usingDevelopmentSecrets).toBe(false);
    // Long enough for a load balancer to stop routing here before the listener closes.
    expect(config.shutdownGraceMs).toBe(5_000);
  });

  it('reports every invalid value at once', () => {
    expect(() =>
      loadPlatformConfig(
        new Environment({
          PORT: 'eighty',
          DATABASE_URL: 'mysql://x',
          RATE_LIMITS: 'maybe',
          RATE_LIMIT_CHARGES: '-1',
          SECRET_HMAC_KEY: 'short',
          ENCRYPTION_KEYS: '1:tooshort',
        }),
      ),
    ).toThrow(
      /PORT must be an integer[\s\S]*DATABASE_URL must be a postgres:[\s\S]*RATE_LIMITS must be one of on, off[\s\S]*RATE_LIMIT_CHARGES must be a number >= 0[\s\S]*SECRET_HMAC_KEY must be at least 32[\s\S]*ENCRYPTION_KEYS must be a list/,
    );
  });

  it('turns rate limits off and overrides thresholds', () => {
    const config = loadPlatformConfig(
      new Environment({ RATE_LIMITS: 'off', RATE_LIMIT_VOLUMES_UNLIST: '2.5' }),
    );
    expect(config.rateLimits.enabled).toBe(false);
    expect(config.rateLimits.thresholds.volumes_unlist).toBe(2.5);
  });

  it('orders encryption keys so the highest version encrypts', () => {
    const config = loadPlatformConfig(
      new Environment({
        ENCRYPTION_KEYS: `2:${Buffer.alloc(32, 2).toString('base64')},1:${Buffer.alloc(32, 1).toString('base64')}`,
      }),
    );
    expect(config.encryptionKeys.map((key) => key.version)).toEqual([1, 2]);
  });

  describe('SECRET_HMAC_KEY', () => {
    const keyA = 'a'.repeat(32);
    const keyB = 'b'.repeat(40);

    it('takes a plain value as version 1', () => {
      const config = loadPlatformConfig(new Environment({ SECRET_HMAC_KEY: keyB }));
      expect(config.hmacKeys).toEqual([{ version: 1, key: Buffer.from(keyB) }]);
    });

    it('takes a versioned list, oldest first', () => {
      const config = loadPlatformConfig(
        new Environment({ SECRET_HMAC_KEY: `2:${keyB}, 1:${keyA}` }),
      );
      expect(config.hmacKeys).toEqual([
        { version: 1, key: Buffer.from(keyA) },
        { version: 2, key: Buffer.from(keyB) },
      ]);
    });

    it('refuses short keys and repeated versions in a list', () => {
      expect(() =>
        loadPlatformConfig(new Environment({ SECRET_HMAC_KEY: `1:${keyA},2:short,1:${keyB}` })),
      ).toThrow(
        expect.objectContaining({
          problems: [
            'SECRET_HMAC_KEY version 2 must be at least 32 characters long',
            'SECRET_HMAC_KEY lists version 1 twice',
          ],
        }),
      );
    });
  });

  describe('Redis and replica settings', () => {
    it('selects cluster mode from REDIS_CLUSTER_NODES', () => {
      const config = loadPlatformConfig(
        new Environment({ REDIS_CLUSTER_NODES: 'r1:7000, r2:7001,[::1]:7002' }),
      );
      expect(config.redis).toEqual({
        mode: 'cluster',
        url: 'redis://127.0.0.1:6379',
        nodes: [
          { host: 'r1', port: 7000 },
          { host: 'r2', port: 7001 },
          { host: '::1', port: 7002 },
        ],
      });
    });

    it('selects Sentinel mode from REDIS_SENTINELS and REDIS_SENTINEL_NAME', () => {
      const config = loadPlatformConfig(
        new Environment({ REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'main' }),
      );
      expect(config.redis).toMatchObject({ mode: 'sentinel', name: 'main' });
    });

    it('names every Redis topology mistake', () => {
      expect(() =>
        loadPlatformConfig(
          new Environment({ REDIS_CLUSTER_NODES: 'r1:70000,nohost', REDIS_SENTINELS: 's1:1' }),
        ),
      ).toThrow(
        expect.objectContaining({
          problems: [
            'REDIS_CLUSTER_NODES and REDIS_SENTINELS exclude each other: set one',
            "REDIS_CLUSTER_NODES must be a list of host:port (got 'r1:70000')",
            "REDIS_CLUSTER_NODES must be a list of host:port (got 'nohost')",
            'REDIS_CLUSTER_NODES must name at least one host:port',
          ],
        }),
      );
      expect(() => loadPlatformConfig(new Environment({ REDIS_SENTINELS: 's1:26379' }))).toThrow(
        expect.objectContaining({
          problems: ['REDIS_SENTINEL_NAME is required with REDIS_SENTINELS'],
        }),
      );
    });

    it('reads the replica URL and its lag bound (default 5 s)', () => {
      expect(loadPlatformConfig(new Environment({})).databaseReplicaUrl).toBeNull();
      const config = loadPlatformConfig(
        new Environment({
          DATABASE_REPLICA_URL: 'postgres://app@replica:5432/gpumarket',
          DATABASE_REPLICA_MAX_LAG_SECONDS: '2.5',
        }),
      );
      expect(config.databaseReplicaUrl).toBe('postgres://app@replica:5432/gpumarket');
      expect(config.databaseReplicaMaxLagSeconds).toBe(2.5);
      expect(loadPlatformConfig(new Environment({})).databaseReplicaMaxLagSeconds).toBe(5);
    });

    it('runs the hot reads as named statements unless DATABASE_PREPARED_STATEMENTS is false', () => {
      expect(loadPlatformConfig(new Environment({})).databasePreparedStatements).toBe(true);
      const off = new Environment({ DATABASE_PREPARED_STATEMENTS: 'false' });
      expect(loadPlatformConfig(off).databasePreparedStatements).toBe(false);
    });

    it('accepts a cluster or Sentinel without REDIS_URL in production', () => {
      const config = loadPlatformConfig(
        new Environment({
          NODE_ENV: 'production',
          ...strongKeys,
          DATABASE_URL: services.DATABASE_URL,
          REDIS_CLUSTER_NODES: 'r1:7000',
        }),
      );
      expect(config.redis.mode).toBe('cluster');
    });
  });
});
