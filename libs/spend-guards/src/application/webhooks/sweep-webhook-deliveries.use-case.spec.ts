import { webhooksKit } from '../../testing/webhooks-kit';

describe('SweepWebhookDeliveriesUseCase', () => {
  it('queues again the deliveries pending for longer than WEBHOOK_SWEEP_SECONDS only', async () => {
    const { create, sendTest, deliver, sweep, queue, clock } = webhooksKit({
      settings: { sweepSeconds: 30 },
    });
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const pending = await sendTest.execute(7, webhook.id);
    const delivered = await sendTest.execute(7, webhook.id);
    await deliver.execute({ deliveryId: delivered.id }, { attempt: 1, maxAttempts: 3 });
    queue.queued.length = 0;
    clock.advance(30_000);
    expect(await sweep.execute()).toBe(0);
    clock.advance(1);
    expect(await sweep.execute()).toBe(1);
    expect(queue.queued).toEqual([pending.id]);
  });
});
