import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import { settleWithin } from '../settle-within';
import { SentinelFailoverWatch } from './sentinel-failover-watch';

/** An orderly QUIT waits this long; with Redis down it would wait for a reconnection. */
const QUIT_WAIT_MS = 1_000;

/** host:port of one Redis node or Sentinel. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where Redis is (README "Configuration"): one server (`REDIS_URL`), a Redis Cluster
 * (`REDIS_CLUSTER_NODES`) or a master followed through Sentinel (`REDIS_SENTINELS`,
 * `REDIS_SENTINEL_NAME`). In cluster and Sentinel mode `url` still supplies the
 * credentials and TLS setting (and, with Sentinel, the database index); its host is unused.
 */
export type RedisTopology =
  | { mode: 'single'; url: string }
  | { mode: 'cluster'; url: string; nodes: RedisNode[] }
  | { mode: 'sentinel'; url: string; sentinels: RedisNode[]; name: string };

/**
 * BullMQ's key prefix. In a cluster every key of one queue must share a hash slot (its
 * scripts touch many keys at once), so the prefix is a hash tag there. Single-server and
 * Sentinel deployments keep the plain prefix, so an upgrade finds the jobs already queued.
 */
export function queuePrefixFor(topology: RedisTopology): string {
  return topology.mode === 'cluster' ? '{bull}' : 'bull';
}

/**
 * The one place Redis connections are made. Request-path commands fail within the command
 * timeout when Redis is down (so callers answer 503 instead of hanging); commands issued
 * while the connection is first being made wait in the offline queue under the same
 * bound. Once connected, a lost connection refuses commands at once and resends none:
 * a queued or unanswered command whose caller was already told 503 must not run later
 * (a grant, a challenge update) when Redis comes back. Queue connections wait and retry,
 * as BullMQ requires.
 *
 * A cluster connection is an ioredis `Cluster`: it has the command API of `Redis` and is
 * handed out under that type; every multi-key command the stores issue keeps its keys in
 * one hash slot (docs/operations.md "Redis keys and hash slots").
 */
export class RedisConnectionFactory {
  private readonly connections = new Set<Redis | Cluster>();
  readonly topology: RedisTopology;
  /** Sentinel mode: holds every connection back from the old master during a failover. */
  private readonly failoverWatch: SentinelFailoverWatch | null;
  private readonly sentinelConnector: RedisOptions['Connector'];

  constructor(topology: string | RedisTopology) {
    this.topology = typeof topology === 'string' ? { mode: 'single', url: topology } : topology;
    this.failoverWatch =
      this.topology.mode === 'sentinel'
        ? new SentinelFailoverWatch(this.topology.sentinels, this.topology.name)
        : null;
    this.sentinelConnector = this.failoverWatch?.connectorClass();
  }

  /** BullMQ's key prefix for every queue and worker of this deployment. */
  get queuePrefix(): string {
    return queuePrefixFor(this.topology);
  }

  createCommandConnection(name: string): Redis {
    const command: RedisOptions = {
      connectionName: name,
      maxRetriesPerRequest: 1,
      autoResendUnfulfilledCommands: false,
      connectTimeout: 2_000,
      commandTimeout: 2_000,
    };
    const connection =
      this.topology.mode === 'cluster'
        ? this.cluster(command, { enableOfflineQueue: true })
        : new Redis({
            ...this.serverOptions(),
            ...command,
            enableOfflineQueue: true,
            retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
            lazyConnect: false,
          });
    connection.once('ready', () => {
      connection.options.enableOfflineQueue = false;
    });
    // Same command API; the DI token of a command connection is the `Redis` class.
    return this.track(connection) as Redis;
  }

  /**
   * A connection that only listens (SUBSCRIBE): it reconnects for ever and subscribes again
   * by itself. In a cluster, PUBLISH reaches the subscribers of every node, so one `Cluster`
   * connection hears it whichever node it subscribed on; through Sentinel it follows the
   * master like the command connection. Messages sent while it was reconnecting are lost:
   * its users treat a (re)subscription as "anything may have changed".
   */
  createSubscriberConnection(name: string): Redis {
    const subscriber: RedisOptions = {
      connectionName: name,
      maxRetriesPerRequest: null,
      autoResubscribe: true,
      connectTimeout: 2_000,
    };
    const connection =
      this.topology.mode === 'cluster'
        ? this.cluster(subscriber, { enableOfflineQueue: true })
        : new Redis({
            ...this.serverOptions(),
            ...subscriber,
            retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
          });
    return this.track(connection) as Redis;
  }

  /**
   * Connection for BullMQ queues and workers. Single server and Sentinel: options (BullMQ
   * creates and owns its connections). Cluster: a `Cluster` made here (BullMQ takes
   * options only for single servers) and closed by closeAll().
   */
  queueConnection(
    name: string,
    overrides: { enableOfflineQueue?: boolean } = {},
  ): RedisOptions | Cluster {
    if (this.topology.mode === 'cluster') {
      return this.track(
        this.cluster(
          { connectionName: name, maxRetriesPerRequest: null },
          { enableOfflineQueue: overrides.enableOfflineQueue ?? true },
        ),
      ) as Cluster;
    }
    return this.queueConnectionOptions(name, overrides);
  }

  /** Options for BullMQ on one server or through Sentinel. */
  queueConnectionOptions(
    name: string,
    overrides: { enableOfflineQueue?: boolean } = {},
  ): RedisOptions {
    return {
      ...this.serverOptions(),
      connectionName: name,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      ...overrides,
    };
  }

  async closeAll(): Promise<void> {
    await Promise.all(
      [...this.connections].map(async (connection) => {
        if (connection.status !== 'ready' || !(await settleWithin(connection.quit(), QUIT_WAIT_MS)))
          connection.disconnect();
      }),
    );
    this.connections.clear();
    // After the connections: BullMQ's, closed before these, may still be reconnecting.
    this.failoverWatch?.close();
  }

  /** Host, credentials, TLS and database of a single server, or the Sentinel settings. */
  private serverOptions(): RedisOptions {
    const parsed = new URL(this.topology.url);
    const common: RedisOptions = {
      username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
      tls: parsed.protocol === 'rediss:' ? {} : undefined,
    };
    if (this.topology.mode === 'sentinel') {
      return {
        ...common,
        sentinels: this.topology.sentinels,
        name: this.topology.name,
        sentinelRetryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
        // Every connection, BullMQ's included, follows a failover (sentinel-failover-watch.ts).
        Connector: this.sentinelConnector,
        // After a failover the old master may still answer for a moment as a replica:
        // reconnect (to the new master) instead of failing every write with READONLY.
        reconnectOnError: (error) => error.message.startsWith('READONLY'),
      };
    }
    return { ...common, host: parsed.hostname, port: Number(parsed.port || 6379) };
  }

  private cluster(redisOptions: RedisOptions, options: ClusterOptions): Cluster {
    if (this.topology.mode !== 'cluster') throw new Error('not in cluster mode');
    const { username, password, tls } = this.serverOptions();
    return new Cluster(this.topology.nodes, {
      ...options,
      redisOptions: { ...redisOptions, username, password, tls },
      // Writes and reads both go to masters: a replica may lag behind a write just made.
      scaleReads: 'master',
      clusterRetryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      // Redirections during a resharding or failover are followed a few times, briefly.
      retryDelayOnMoved: 50,
      retryDelayOnClusterDown: 200,
      retryDelayOnTryAgain: 100,
      slotsRefreshTimeout: 2_000,
    });
  }

  private track<T extends Redis | Cluster>(connection: T): T {
    // Errors surface on commands; without a listener ioredis would log each reconnect attempt.
    connection.on('error', () => undefined);
    this.connections.add(connection);
    return connection;
  }
}
