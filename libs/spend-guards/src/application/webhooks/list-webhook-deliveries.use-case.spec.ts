import { rejection } from '@app/platform/testing';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('ListWebhookDeliveriesUseCase', () => {
  it("answers the endpoint's deliveries newest first; another owner's is a 404", async () => {
    const { create, sendTest, listDeliveries, clock } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const first = await sendTest.execute(7, webhook.id);
    clock.advance(1000);
    const second = await sendTest.execute(7, webhook.id);
    expect((await listDeliveries.execute(7, webhook.id)).map((row) => row.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect((await rejection(listDeliveries.execute(8, webhook.id))).code).toBe('webhook_not_found');
  });
});
