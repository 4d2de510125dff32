import { Environment, QueueRegistry } from '@app/platform';
import { loadDeliverySettings } from '../delivery-settings';
import { RedisDeliveryLedger } from '../redis/redis-delivery-ledger';
import { BullmqMessageQueue } from './bullmq-message.queue';

describe('BullmqMessageQueue', () => {
  it('adds one job per send, its id the send key, the configured retries, removed on completion', async () => {
    const added: unknown[][] = [];
    const registry = {
      jobQueue: ({ name }: { name: string }) => ({
        add: async (...args: unknown[]) => added.push([name, ...args]),
      }),
    } as unknown as QueueRegistry;
    const settings = loadDeliverySettings(
      new Environment({
        DELIVERY_FIRST_ATTEMPT_WAIT_MS: '0',
        DELIVERY_MAX_ATTEMPTS: '5',
        DELIVERY_BACKOFF_MS: '1000',
      }),
    );
    const unheard: string[] = [];
    const ledger = {
      markUnheard: async (key: string) => void unheard.push(`${key}@${added.length}`),
    } as unknown as RedisDeliveryLedger;
    const queue = new BullmqMessageQueue(registry, ledger, settings);
    expect(
      await queue.enqueue(
        { name: 'deliver-code', key: 'abc-2', data: { challengeKey: 'abc', sendNumber: 2 } },
        { awaitFirstAttempt: true },
      ),
    ).toEqual({
      state: 'pending',
    });
    // Not waiting at all is said before the job is added, so no report can be mistaken as heard.
    expect(unheard).toEqual(['abc-2@0']);
    expect(added).toEqual([
      [
        'code-delivery',
        'deliver-code',
        { challengeKey: 'abc', sendNumber: 2 },
        expect.objectContaining({
          jobId: 'abc-2',
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
        }),
      ],
    ]);
  });

  it("takes a job's own retries in place of the settings' when it names them", async () => {
    const added: unknown[][] = [];
    const registry = {
      jobQueue: () => ({ add: async (...args: unknown[]) => added.push(args) }),
    } as unknown as QueueRegistry;
    const settings = loadDeliverySettings(new Environment({ DELIVERY_MAX_ATTEMPTS: '5' }));
    const ledger = { markUnheard: async () => undefined } as unknown as RedisDeliveryLedger;
    const queue = new BullmqMessageQueue(registry, ledger, settings);
    await queue.enqueue(
      { name: 'deliver-webhook', key: 'webhook-1', data: { deliveryId: '1' } },
      { awaitFirstAttempt: false, retry: { attempts: 8, backoffMs: 30_000 } },
    );
    expect(added[0][2]).toEqual(
      expect.objectContaining({
        jobId: 'webhook-1',
        attempts: 8,
        backoff: { type: 'exponential', delay: 30_000 },
      }),
    );
  });
});
