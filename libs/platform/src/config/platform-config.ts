import type { RedisNode, RedisTopology } from '../infrastructure/redis/redis-connection.factory';
import { ConfigReader } from './config-reader';
import { databaseNameProblem } from './database-url';
import { Environment } from './environment';
import { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies } from './trusted-proxies';

export type NodeEnv = 'development' | 'test' | 'production';

/** The windowed budget every route that records a security event shares, per user. */
export const SECURITY_WRITES_BUCKET = 'security_writes';

/** A windowed budget: at most `limit` requests of a bucket per identity in any `windowSeconds`. */
export interface RateLimitWindow {
  limit: number;
  windowSeconds: number;
  /** What the requests are, for the refusal's message ("account security changes"). */
  what: string;
}

/**
 * Rate limits on or off (`RATE_LIMITS`), and the named windowed budgets several routes
 * share. The per-endpoint minimum intervals are registered by their contexts
 * (http/rate-limit.registry.ts).
 */
export interface RateLimitSettings {
  enabled: boolean;
  windows: Record<string, RateLimitWindow>;
}

export interface DatabaseLimits {
  poolMax: number;
  /** How long a request waits for a pooled connection before it is answered 503. */
  poolWaitMs: number;
  /** Server-side bounds on one statement and on one lock wait (0 = none). */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  /**
   * Processes expected to share the database (api replicas + workers), for the budget
   * check; null: the processes of this service connected to the server when it starts.
   */
  processes: number | null;
}

/** The Prometheus listener's default port: each process its own, so both fit on one host. */
export const DEFAULT_METRICS_PORTS = { api: 9464, worker: 9465 } as const;

export interface HttpServerLimits {
  /** Time to receive a request's headers, and the whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /**
   * Open connections in total (0 = 80% of the open-file limit, at most 10,000) and from one
   * client address (0 = no limit).
   */
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

export interface EncryptionKey {
  version: number;
  key: Buffer;
}

/** One version of SECRET_HMAC_KEY; the highest version makes new values. */
export interface HmacKey {
  version: number;
  key: Buffer;
}

/** The platform's validated settings. Read once at boot; see README "Configuration". */
export class PlatformConfig {
  nodeEnv: NodeEnv;
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  /** One server, a cluster or Sentinel; see README "Configuration". */
  redis: RedisTopology;
  /** Streaming replica for reads that tolerate lag (docs/operations.md), or null. */
  databaseReplicaUrl: string | null;
  databaseReplicaMaxLagSeconds: number;
  /**
   * The longest a lag-tolerant read may take on the replica (connecting included) before it
   * is abandoned for the primary; its lag probe gets half of it.
   */
  databaseReplicaTimeoutMs: number;
  /**
   * Named (server-side prepared) statements for the hot reads that ask for them; off behind
   * a pooler that cannot carry them (docs/decisions.md "PgBouncer").
   */
  databasePreparedStatements: boolean;
  migrationsRun: boolean;
  runWorker: boolean;
  logLevel: string;
  /** `pretty` (pino-pretty, for a person at a terminal) or `json` (one object a line). */
  logFormat: 'json' | 'pretty';
  rateLimits: RateLimitSettings;
  /**
   * Master keys for fingerprints (API keys, codes, backup codes) and signed cursors,
   * oldest first: the last makes new values, every one still verifies.
   */
  hmacKeys: HmacKey[];
  /** Keys for encryption at rest; the highest version encrypts, all decrypt. */
  encryptionKeys: EncryptionKey[];
  sessionTtlSeconds: number;
  /** True when the secrets are the built-in development values. */
  usingDevelopmentSecrets: boolean;
  shutdownGraceMs: number;
  /** After the grace period, the longest the rest of the shutdown may take. */
  shutdownTimeoutMs: number;
  /** Development-only embedded mode: PGlite and in-process Redis and queue. */
  embedded: boolean;
  /** Database pressure bounds; see README "Configuration" and docs/decisions.md. */
  database: DatabaseLimits;
  /** Per-user in-flight cap of the writes one user can flood (0 = off), per process. */
  writeConcurrencyPerUser: number;
  /** Per-credential in-flight cap on every route (0 = off), per process. */
  requestsInFlightPerKey: number;
  /** Limits on what one client can hold open; see README "Configuration". */
  http: HttpServerLimits;
  /** Response compression (COMPRESSION, COMPRESSION_MIN_BYTES); see README "Configuration". */
  compression: { enabled: boolean; minBytes: number };
  /**
   * Where GET /metrics is served, apart from the api's public port (loopback unless set).
   * A null port is the process's default (DEFAULT_METRICS_PORTS).
   */
  metricsHost: string;
  metricsPort: number | null;
  /**
   * The proxies whose X-Forwarded-For names the client (Express's `trust proxy`): what
   * request.ip, rate limits by address, security records and ip_whitelist see. Empty: none.
   */
  trustedProxies: string[];

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }
}

const DEVELOPMENT_HMAC_KEY = 'development-only-hmac-key-0123456789abcdef';
const DEVELOPMENT_ENCRYPTION_KEYS = `1:${Buffer.alloc(32, 7).toString('base64')}`;

export function loadPlatformConfig(env: Environment): PlatformConfig {
  const read = new ConfigReader(env);
  const config = new PlatformConfig();
  config.nodeEnv = read.oneOf('NODE_ENV', ['development', 'test', 'production'], 'development');
  config.port = read.integer('PORT', 3000, 0, 65535);
  config.host = read.string('HOST', '0.0.0.0');
  config.databaseUrl = read.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/gpumarket', [
    'postgres:',
    'postgresql:',
  ]);
  const databaseProblem = validUrl(config.databaseUrl)
    ? databaseNameProblem('DATABASE_URL', config.databaseUrl)
    : null;
  if (databaseProblem) read.problem(databaseProblem);
  config.redisUrl = read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']);
  config.redis = readRedisTopology(read, config.redisUrl);
  const replicaUrl = read.optionalString('DATABASE_REPLICA_URL');
  config.databaseReplicaUrl =
    replicaUrl === undefined || replicaUrl === ''
      ? null
      : read.url('DATABASE_REPLICA_URL', replicaUrl, ['postgres:', 'postgresql:']);
  const replicaProblem =
    config.databaseReplicaUrl && validUrl(config.databaseReplicaUrl)
      ? databaseNameProblem('DATABASE_REPLICA_URL', config.databaseReplicaUrl)
      : null;
  if (replicaProblem) read.problem(replicaProblem);
  config.databaseReplicaMaxLagSeconds = read.number('DATABASE_REPLICA_MAX_LAG_SECONDS', 5, 0);
  config.databaseReplicaTimeoutMs = read.integer('DATABASE_REPLICA_TIMEOUT_MS', 500, 50, 60_000);
  config.databasePreparedStatements = read.boolean('DATABASE_PREPARED_STATEMENTS', true);
  config.migrationsRun = read.boolean('MIGRATIONS_RUN', true);
  config.runWorker = read.boolean('RUN_WORKER', true);
  config.logLevel = read.oneOf(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    config.nodeEnv === 'test' ? 'silent' : 'info',
  );
  // auto: readable on a terminal during development, JSON for files, pipes and collectors.
  const logFormat = read.oneOf('LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto');
  config.logFormat =
    logFormat === 'auto'
      ? process.stdout.isTTY && config.nodeEnv !== 'production'
        ? 'pretty'
        : 'json'
      : logFormat;
  config.sessionTtlSeconds = read.integer('SESSION_TTL_SECONDS', 7 * 24 * 3600, 60);
  // Long enough for a load balancer to stop routing here before the listener closes.
  config.shutdownGraceMs = read.integer(
    'SHUTDOWN_GRACE_MS',
    config.nodeEnv === 'production' ? 5_000 : 1_000,
    0,
  );
  config.shutdownTimeoutMs = read.integer('SHUTDOWN_TIMEOUT_MS', 15_000, 1_000);
  // 3 api replicas + 2 workers x 10 = 50 of a default server's 100 connections: room for
  // operators, migrations and a rolling deploy's extra replica (docs/decisions.md).
  config.database = {
    poolMax: read.integer('DATABASE_POOL_MAX', 10, 1, 1000),
    poolWaitMs: read.integer('DATABASE_POOL_WAIT_MS', 2_000, 1, 60_000),
    statementTimeoutMs: read.integer('DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 0),
    lockTimeoutMs: read.integer('DATABASE_LOCK_TIMEOUT_MS', 5_000, 0),
    processes:
      read.optionalString('DATABASE_POOL_PROCESSES') === undefined
        ? null
        : read.integer('DATABASE_POOL_PROCESSES', 1, 1, 10_000),
  };
  config.writeConcurrencyPerUser = read.integer('WRITE_CONCURRENCY_PER_USER', 2, 0, 1000);
  config.requestsInFlightPerKey = read.integer('REQUESTS_IN_FLIGHT_PER_KEY', 64, 0, 100_000);
  config.compression = {
    enabled: read.boolean('COMPRESSION', true),
    minBytes: read.integer('COMPRESSION_MIN_BYTES', 1024, 0, 1 << 30),
  };
  config.http = {
    headersTimeoutMs: read.integer('HTTP_HEADERS_TIMEOUT_MS', 10_000, 1_000),
    requestTimeoutMs: read.integer('HTTP_REQUEST_TIMEOUT_MS', 30_000, 1_000),
    keepAliveTimeoutMs: read.integer('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 1),
    maxConnections: read.integer('HTTP_MAX_CONNECTIONS', 0, 0),
    maxConnectionsPerAddress: read.integer('HTTP_MAX_CONNECTIONS_PER_ADDRESS', 256, 0),
  };
  if (config.http.headersTimeoutMs > config.http.requestTimeoutMs)
    read.problem('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  config.metricsHost = read.string('METRICS_HOST', '127.0.0.1');
  config.metricsPort =
    read.optionalString('METRICS_PORT') === undefined
      ? null
      : read.integer('METRICS_PORT', 0, 0, 65535);
  config.trustedProxies = readTrustedProxies(read);
  config.embedded = read.boolean('EMBEDDED', false);
  if (config.embedded && !config.runWorker) {
    read.problem(
      'RUN_WORKER=false leaves codes undelivered in the embedded mode (its queue is in-process)',
    );
  }
  if (config.nodeEnv === 'production') {
    // Production never falls back: not to the embedded parts, not to services on localhost.
    if (config.embedded)
      read.problem('EMBEDDED is for development only; production needs DATABASE_URL and REDIS_URL');
    if (env.get('DATABASE_URL') === undefined)
      read.problem('DATABASE_URL is required in production');
    if (config.redis.mode === 'single' && env.get('REDIS_URL') === undefined) {
      read.problem(
        'REDIS_URL is required in production (or REDIS_CLUSTER_NODES, or REDIS_SENTINELS)',
      );
    }
  }

  const rateLimitsOn = read.boolean('RATE_LIMITS', true);
  // Every route that writes a security event shares one budget per user, so what one user
  // can add to their history (and to the notices it mails) is bounded (docs/identity-tfa.md).
  const windows: Record<string, RateLimitWindow> = {
    [SECURITY_WRITES_BUCKET]: {
      limit: read.integer('SECURITY_WRITES_PER_USER', 30, 1, 100_000),
      windowSeconds: read.integer('SECURITY_WRITES_WINDOW_SECONDS', 600, 1, 86_400),
      what: 'account security changes',
    },
  };
  config.rateLimits = { enabled: rateLimitsOn, windows };

  const hmacKey = read.secret(
    'SECRET_HMAC_KEY',
    DEVELOPMENT_HMAC_KEY,
    `at least ${HMAC_KEY_MIN_LENGTH} characters, or a versioned list 1:<key>,2:<key>`,
  );
  const encryptionKeys = read.secret(
    'ENCRYPTION_KEYS',
    DEVELOPMENT_ENCRYPTION_KEYS,
    ENCRYPTION_KEYS_FORM,
  );
  config.usingDevelopmentSecrets =
    hmacKey === DEVELOPMENT_HMAC_KEY || encryptionKeys === DEVELOPMENT_ENCRYPTION_KEYS;
  config.hmacKeys = parseHmacKeys(hmacKey, read);
  config.encryptionKeys = parseEncryptionKeys(encryptionKeys, read);
  read.done();
  return config;
}

function validUrl(raw: string): boolean {
  try {
    new URL(raw);
    return true;
  } catch {
    return false;
  }
}

/** `TRUSTED_PROXIES` (config/trusted-proxies.ts). */
function readTrustedProxies(read: ConfigReader): string[] {
  const parsed = parseTrustedProxies(read.string('TRUSTED_PROXIES', DEFAULT_TRUSTED_PROXIES));
  if (typeof parsed === 'string') {
    read.problem(parsed);
    return [];
  }
  return parsed;
}

const HMAC_KEY_LIST = /^\s*\d+:[^,]+(,\s*\d+:[^,]+)*\s*$/;
const HMAC_KEY_MIN_LENGTH = 32;

/**
 * `SECRET_HMAC_KEY` is one key (version 1) or a versioned list `1:<key>,2:<key>` of keys of
 * at least 32 characters each. Versions only order the keys (no value records one), so a
 * rotation may renumber them (docs/operations.md "Key rotation").
 */
function parseHmacKeys(raw: string, read: ConfigReader): HmacKey[] {
  if (!HMAC_KEY_LIST.test(raw)) {
    if (raw.length < HMAC_KEY_MIN_LENGTH) {
      read.problem(`SECRET_HMAC_KEY must be at least ${HMAC_KEY_MIN_LENGTH} characters long`);
    }
    return [{ version: 1, key: Buffer.from(raw, 'utf8') }];
  }
  const keys: HmacKey[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const colon = entry.indexOf(':');
    const version = Number(entry.slice(0, colon));
    const key = entry.slice(colon + 1);
    if (key.length < HMAC_KEY_MIN_LENGTH) {
      read.problem(
        `SECRET_HMAC_KEY version ${version} must be at least ${HMAC_KEY_MIN_LENGTH} characters long`,
      );
    }
    if (keys.some((known) => known.version === version)) {
      read.problem(`SECRET_HMAC_KEY lists version ${version} twice`);
    }
    keys.push({ version, key: Buffer.from(key, 'utf8') });
  }
  return keys.sort((a, b) => a.version - b.version);
}

const ENCRYPTION_KEYS_FORM = 'a list of <version>:<base64 of 32 bytes>, e.g. 1:<key>,2:<key>';

/**
 * `ENCRYPTION_KEYS=1:<base64 32 bytes>,2:<base64 32 bytes>`; the highest version encrypts.
 * A mistake is said once, naming the entries by position (never their values: secrets).
 */
function parseEncryptionKeys(raw: string, read: ConfigReader): EncryptionKey[] {
  const keys: EncryptionKey[] = [];
  const bad: number[] = [];
  const entries = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  entries.forEach((entry, index) => {
    const match = /^(\d+):(.+)$/.exec(entry);
    const key = match ? Buffer.from(match[2], 'base64') : Buffer.alloc(0);
    if (!match || key.length !== 32) bad.push(index + 1);
    else keys.push({ version: Number(match[1]), key });
  });
  if (entries.length === 0 || bad.length > 0) {
    const which = entries.length > 1 && bad.length > 0 ? ` (entry ${bad.join(', ')})` : '';
    read.problem(`ENCRYPTION_KEYS must be ${ENCRYPTION_KEYS_FORM}${which}`);
  }
  return keys.sort((a, b) => a.version - b.version);
}

/**
 * `REDIS_CLUSTER_NODES=host:port,...` selects cluster mode (REDIS_URL then only gives
 * credentials and TLS); `REDIS_SENTINELS=host:port,...` with `REDIS_SENTINEL_NAME` selects
 * Sentinel mode. Setting both is a mistake, not a preference.
 */
function readRedisTopology(read: ConfigReader, url: string): RedisTopology {
  const clusterRaw = read.optionalString('REDIS_CLUSTER_NODES');
  const sentinelsRaw = read.optionalString('REDIS_SENTINELS');
  const sentinelName = read.optionalString('REDIS_SENTINEL_NAME');
  if (clusterRaw && sentinelsRaw) {
    read.problem('REDIS_CLUSTER_NODES and REDIS_SENTINELS exclude each other: set one');
  }
  if (clusterRaw) {
    return { mode: 'cluster', url, nodes: parseNodes(read, 'REDIS_CLUSTER_NODES', clusterRaw) };
  }
  if (sentinelsRaw) {
    if (!sentinelName) read.problem('REDIS_SENTINEL_NAME is required with REDIS_SENTINELS');
    return {
      mode: 'sentinel',
      url,
      sentinels: parseNodes(read, 'REDIS_SENTINELS', sentinelsRaw),
      name: sentinelName ?? '',
    };
  }
  if (sentinelName) read.problem('REDIS_SENTINEL_NAME needs REDIS_SENTINELS');
  return { mode: 'single', url };
}

function parseNodes(read: ConfigReader, name: string, raw: string): RedisNode[] {
  const nodes: RedisNode[] = [];
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(entry);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      read.problem(`${name} must be a list of host:port (got '${entry}')`);
      continue;
    }
    nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  if (nodes.length === 0) read.problem(`${name} must name at least one host:port`);
  return nodes;
}
