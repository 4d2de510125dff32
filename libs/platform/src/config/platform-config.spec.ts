import { ConfigError } from './config-error';
import { Environment } from './environment';
import { DEFAULT_METRICS_PORTS, loadPlatformConfig } from './platform-config';

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
      windows: {
        security_writes: { limit: 30, windowSeconds: 600, what: 'account security changes' },
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
        'SECRET_HMAC_KEY is required in production (at least 32 characters, or a versioned list 1:<key>,2:<key>)',
        'ENCRYPTION_KEYS is required in production (a list of <version>:<base64 of 32 bytes>, e.g. 1:<key>,2:<key>)',
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
          SECRET_HMAC_KEY: 'short',
          ENCRYPTION_KEYS: '1:tooshort',
        }),
      ),
    ).toThrow(
      /PORT must be an integer[\s\S]*DATABASE_URL must be a postgres:[\s\S]*RATE_LIMITS must be one of true, 1, yes, on, false, 0, no, off \(got 'maybe'\)[\s\S]*SECRET_HMAC_KEY must be at least 32[\s\S]*ENCRYPTION_KEYS must be a list/,
    );
  });

  it('turns rate limits off', () => {
    const config = loadPlatformConfig(new Environment({ RATE_LIMITS: 'off' }));
    expect(config.rateLimits.enabled).toBe(false);
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

    it('says each mistake of a key once', () => {
      for (const [value, problems] of [
        ['short', ['SECRET_HMAC_KEY must be at least 32 characters long']],
        ['1:short', ['SECRET_HMAC_KEY version 1 must be at least 32 characters long']],
        [
          '1:short,2:tiny',
          [
            'SECRET_HMAC_KEY version 1 must be at least 32 characters long',
            'SECRET_HMAC_KEY version 2 must be at least 32 characters long',
          ],
        ],
      ] as const) {
        expect(() => loadPlatformConfig(new Environment({ SECRET_HMAC_KEY: value }))).toThrow(
          expect.objectContaining({ problems }),
        );
      }
    });

    it('says what an encryption key list must be, once, naming bad entries by position only', () => {
      const good = `1:${Buffer.alloc(32, 1).toString('base64')}`;
      for (const [value, problem] of [
        [
          'x',
          'ENCRYPTION_KEYS must be a list of <version>:<base64 of 32 bytes>, e.g. 1:<key>,2:<key>',
        ],
        [
          `${good},2:c2hvcnQ=,3:also-bad`,
          'ENCRYPTION_KEYS must be a list of <version>:<base64 of 32 bytes>, e.g. 1:<key>,2:<key> (entry 2, 3)',
        ],
      ]) {
        expect(() => loadPlatformConfig(new Environment({ ENCRYPTION_KEYS: value }))).toThrow(
          expect.objectContaining({ problems: [problem] }),
        );
      }
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

    it('gives replica reads a client-side deadline (DATABASE_REPLICA_TIMEOUT_MS, 500 ms by default)', () => {
      expect(loadPlatformConfig(new Environment({})).databaseReplicaTimeoutMs).toBe(500);
      expect(
        loadPlatformConfig(new Environment({ DATABASE_REPLICA_TIMEOUT_MS: '1200' }))
          .databaseReplicaTimeoutMs,
      ).toBe(1200);
      expect(() =>
        loadPlatformConfig(new Environment({ DATABASE_REPLICA_TIMEOUT_MS: '10' })),
      ).toThrow(/DATABASE_REPLICA_TIMEOUT_MS must be an integer between 50 and 60000/);
    });

    it('counts the processes connected unless DATABASE_POOL_PROCESSES says how many', () => {
      expect(loadPlatformConfig(new Environment({})).database.processes).toBeNull();
      expect(
        loadPlatformConfig(new Environment({ DATABASE_POOL_PROCESSES: '6' })).database.processes,
      ).toBe(6);
      expect(() => loadPlatformConfig(new Environment({ DATABASE_POOL_PROCESSES: '0' }))).toThrow(
        /DATABASE_POOL_PROCESSES must be an integer between 1 and 10000/,
      );
    });

    it('serves metrics on loopback, on the default port of each process unless METRICS_PORT is set', () => {
      const defaults = loadPlatformConfig(new Environment({}));
      expect(defaults.metricsHost).toBe('127.0.0.1');
      expect(defaults.metricsPort).toBeNull();
      expect(DEFAULT_METRICS_PORTS).toEqual({ api: 9464, worker: 9465 });
      const set = loadPlatformConfig(
        new Environment({ METRICS_HOST: '0.0.0.0', METRICS_PORT: '0' }),
      );
      expect([set.metricsHost, set.metricsPort]).toEqual(['0.0.0.0', 0]);
      expect(() => loadPlatformConfig(new Environment({ METRICS_PORT: 'nine' }))).toThrow(
        /METRICS_PORT must be an integer between 0 and 65535/,
      );
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
