import { QueueRegistry } from '@app/platform';
import { BullmqCodeDeliveryQueue } from './bullmq-code-delivery.queue';

describe('BullmqCodeDeliveryQueue', () => {
  it('adds one job per send with a deterministic id, no code, removed on completion', async () => {
    const added: unknown[][] = [];
    const registry = {
      get: (name: string) => ({ add: async (...args: unknown[]) => added.push([name, ...args]) }),
    } as unknown as QueueRegistry;
    await new BullmqCodeDeliveryQueue(registry).enqueue({ challengeKey: 'abc', sendNumber: 2 });
    expect(added).toEqual([
      [
        'code-delivery',
        'deliver-code',
        { challengeKey: 'abc', sendNumber: 2 },
        expect.objectContaining({ jobId: 'abc-2', removeOnComplete: true }),
      ],
    ]);
  });
});
