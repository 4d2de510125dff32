import { Queue } from 'bullmq';
import { RedisConnectionFactory } from '../redis/redis-connection.factory';

/**
 * BullMQ queues by name, sharing the platform's Redis settings. Producers get their
 * queue here; readiness reports every queue that was opened.
 */
export class QueueRegistry {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly connections: RedisConnectionFactory) {}

  get(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: {
          ...this.connections.queueConnectionOptions(`queue:${name}`),
          enableOfflineQueue: false,
        },
      });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }

  workerConnectionOptions(name: string) {
    return this.connections.queueConnectionOptions(`worker:${name}`);
  }

  opened(): Queue[] {
    return [...this.queues.values()];
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened().map((queue) => queue.close().catch(() => undefined)));
    this.queues.clear();
  }
}
