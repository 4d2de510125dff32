import { rejection } from '@app/platform/testing';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('SendTestEventUseCase', () => {
  it('records a pending webhook.test delivery to that endpoint and queues it after the commit', async () => {
    const { create, sendTest, deliveries, queue, clock } = webhooksKit();
    const { webhook } = await create.execute({
      ownerKey: 7,
      url: 'https://a.example/1',
      events: ['budget.threshold_crossed'],
    });
    const delivery = await sendTest.execute(7, webhook.id);
    expect(delivery).toEqual({
      id: expect.any(String),
      webhookId: webhook.id,
      eventId: expect.stringMatching(/^evt_[A-Za-z0-9]+$/),
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      createdAt: new Date(clock.nowMs()),
      lastAttemptAt: null,
      deliveredAt: null,
    });
    expect(queue.queued).toEqual([delivery.id]);
    const payload = await deliveries.findPayload(webhook.id, delivery.id);
    expect(JSON.parse(payload!.body)).toEqual({
      id: delivery.eventId,
      type: 'webhook.test',
      created_at: Math.floor(clock.nowMs() / 1000),
      data: { webhook_id: webhook.id },
    });
  });

  it('answers the pending delivery even when the queue is away: the sweep queues it', async () => {
    const { create, sendTest, queue, sweep, clock, deliveries } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    queue.failing = true;
    const delivery = await sendTest.execute(7, webhook.id);
    expect(queue.queued).toEqual([]);
    expect(await deliveries.findPending(delivery.id)).not.toBeNull();
    queue.failing = false;
    expect(await sweep.execute()).toBe(0);
    clock.advance(61_000);
    expect(await sweep.execute()).toBe(1);
    expect(queue.queued).toEqual([delivery.id]);
  });

  it("is a 404 for another owner's endpoint", async () => {
    const { create, sendTest, deliveries } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    expect((await rejection(sendTest.execute(8, webhook.id))).code).toBe('webhook_not_found');
    expect(deliveries.rows.size).toBe(0);
  });
});
