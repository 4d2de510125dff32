import { rejection } from '@app/platform/testing';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('ResendWebhookDeliveryUseCase', () => {
  it('records a new delivery of the same event and body, and queues it', async () => {
    const { create, sendTest, resend, deliveries, queue } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const original = await sendTest.execute(7, webhook.id);
    const again = await resend.execute(7, webhook.id, original.id);
    expect(again).toMatchObject({
      eventId: original.eventId,
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
    });
    expect(again.id).not.toBe(original.id);
    expect(await deliveries.findPayload(webhook.id, again.id)).toEqual(
      await deliveries.findPayload(webhook.id, original.id),
    );
    expect(queue.queued).toEqual([original.id, again.id]);
  });

  it("is a 404 for an unknown delivery, another endpoint's, or another owner's", async () => {
    const { create, sendTest, resend } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const other = (await create.execute({ ownerKey: 7, url: 'https://a.example/2' })).webhook;
    const delivery = await sendTest.execute(7, webhook.id);
    expect((await rejection(resend.execute(7, other.id, delivery.id))).code).toBe(
      'webhook_delivery_not_found',
    );
    expect((await rejection(resend.execute(7, webhook.id, 'nope'))).code).toBe(
      'webhook_delivery_not_found',
    );
    expect((await rejection(resend.execute(8, webhook.id, delivery.id))).code).toBe(
      'webhook_not_found',
    );
  });
});
