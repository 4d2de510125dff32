import Redis, { RedisOptions } from 'ioredis';
import { settleWithin } from '../settle-within';

/** An orderly QUIT waits this long; with Redis down it would wait for a reconnection. */
const QUIT_WAIT_MS = 1_000;

/**
 * The one place Redis connections are made. Request-path commands fail within the command
 * timeout when Redis is down (so callers answer 503 instead of hanging); commands issued
 * while the connection is first being made wait in the offline queue under the same
 * bound. Once connected, a lost connection refuses commands at once and resends none:
 * a queued or unanswered command whose caller was already told 503 must not run later
 * (a grant, a challenge update) when Redis comes back. Queue connections wait and retry,
 * as BullMQ requires.
 */
export class RedisConnectionFactory {
  private readonly connections = new Set<Redis>();

  constructor(private readonly url: string) {}

  createCommandConnection(name: string): Redis {
    const connection = new Redis(this.url, {
      connectionName: name,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      autoResendUnfulfilledCommands: false,
      connectTimeout: 2_000,
      commandTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      lazyConnect: false,
    });
    connection.once('ready', () => {
      connection.options.enableOfflineQueue = false;
    });
    return this.track(connection);
  }

  /** Options for BullMQ queues and workers (they create and own their connections). */
  queueConnectionOptions(name: string): RedisOptions {
    const parsed = new URL(this.url);
    return {
      host: parsed.hostname,
      port: Number(parsed.port || 6379),
      username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
      tls: parsed.protocol === 'rediss:' ? {} : undefined,
      connectionName: name,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
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
  }

  private track(connection: Redis): Redis {
    // Errors surface on commands; without a listener ioredis would log each reconnect attempt.
    connection.on('error', () => undefined);
    this.connections.add(connection);
    return connection;
  }
}
