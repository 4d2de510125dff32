import { randomBytes } from 'node:crypto';
import { RedisConnectionFactory } from '../redis/redis-connection.factory';
import { QueueRegistry } from './queue-registry';

/**
 * A worker stopped right after it started (a SIGTERM a moment after the pod came up) used to
 * crash its process: BullMQ reported the aborted handshake of the worker's blocking connection
 * as an 'error' event after close() had removed every listener.
 */
describe('QueueRegistry on Redis', () => {
  it('closes a worker still in its connection handshake without an unhandled error', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    const connections = new RedisConnectionFactory(process.env.REDIS_URL!);
    const registry = new QueueRegistry(connections);
    const name = `handshake-${randomBytes(4).toString('hex')}`;
    try {
      for (let round = 0; round < 5; round += 1) {
        const worker = registry.process({ name: `${name}-${round}` }, async () => undefined, {
          concurrency: 1,
        });
        await worker.close();
      }
      // Whatever an aborted handshake rejects is settled by the time every connection of
      // the factory has quit (each a round trip after the workers' closes).
      await connections.closeAll();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled.map(String)).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
      await registry.closeAll();
    }
  });
});
