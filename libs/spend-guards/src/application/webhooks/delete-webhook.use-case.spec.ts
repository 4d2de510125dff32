import { rejection } from '@app/platform/testing';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('DeleteWebhookUseCase', () => {
  it("deletes the owner's endpoint with its deliveries; another's is a 404", async () => {
    const { create, remove, sendTest, deliveries, webhooks } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    await sendTest.execute(7, webhook.id);
    expect((await rejection(remove.execute(8, webhook.id))).code).toBe('webhook_not_found');
    await remove.execute(7, webhook.id);
    expect(webhooks.rows.size).toBe(0);
    expect(deliveries.rows.size).toBe(0);
    expect((await rejection(remove.execute(7, webhook.id))).code).toBe('webhook_not_found');
    expect((await rejection(remove.execute(7, 'not-an-id'))).code).toBe('webhook_not_found');
  });
});
