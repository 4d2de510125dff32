import { webhookRepositoriesContract } from './webhook-repositories.contract';
import { InMemoryWebhookDeliveryRepository, InMemoryWebhookRepository } from './in-memory-webhooks';
import { testWebhook } from './webhooks-kit';

describe('InMemoryWebhookRepository and InMemoryWebhookDeliveryRepository', () => {
  webhookRepositoriesContract(async () => {
    const webhooks = new InMemoryWebhookRepository();
    return {
      webhooks,
      deliveries: new InMemoryWebhookDeliveryRepository(webhooks),
      owner: 7,
      stranger: 8,
    };
  });

  it('takes a failed transaction back', async () => {
    const webhooks = new InMemoryWebhookRepository();
    const kept = await webhooks.insert(testWebhook());
    const restore = webhooks.snapshot();
    await webhooks.insert(testWebhook());
    restore();
    expect((await webhooks.listByOwner(7)).map((row) => row.id)).toEqual([kept.id]);
  });
});
