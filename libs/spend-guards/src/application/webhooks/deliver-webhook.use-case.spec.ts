import { verifyWebhookSignature } from '../../domain/webhook-delivery';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('DeliverWebhookUseCase', () => {
  async function oneDelivery() {
    const kit = webhooksKit();
    const created = await kit.create.execute({ ownerKey: 7, url: 'https://a.example/in' });
    const delivery = await kit.sendTest.execute(7, created.webhook.id);
    return { ...kit, created, delivery };
  }

  it('posts the recorded body, signed with the current secret, and marks a 2xx succeeded', async () => {
    const { deliver, transport, delivery, created, deliveries, clock } = await oneDelivery();
    expect(await deliver.execute({ deliveryId: delivery.id }, { attempt: 1, maxAttempts: 3 })).toBe(
      'succeeded',
    );
    const [request] = transport.requests;
    expect(request.url).toBe('https://a.example/in');
    expect(request.headers['Gpumkt-Webhook-Id']).toBe(delivery.id);
    expect(request.headers['Gpumkt-Webhook-Event']).toBe('webhook.test');
    expect(
      verifyWebhookSignature({
        secret: created.secret,
        timestamp: request.headers['Gpumkt-Webhook-Timestamp'],
        signature: request.headers['Gpumkt-Webhook-Signature'],
        rawBody: request.body,
        nowSeconds: Math.floor(clock.nowMs() / 1000),
      }),
    ).toBe('valid');
    expect((await deliveries.listByWebhook(created.webhook.id, 1))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      deliveredAt: new Date(clock.nowMs()),
    });
  });

  it('records and throws a failed attempt; the last one marks the delivery failed', async () => {
    const { deliver, transport, delivery, created, deliveries } = await oneDelivery();
    transport.answer(
      { statusCode: 500, error: null },
      { statusCode: null, error: 'timed out after 100 ms' },
    );
    await expect(
      deliver.execute({ deliveryId: delivery.id }, { attempt: 1, maxAttempts: 2 }),
    ).rejects.toThrow(`webhook delivery ${delivery.id} attempt 1: HTTP 500`);
    expect((await deliveries.listByWebhook(created.webhook.id, 1))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
    });
    await expect(
      deliver.execute({ deliveryId: delivery.id }, { attempt: 2, maxAttempts: 2 }),
    ).rejects.toThrow('timed out after 100 ms');
    expect((await deliveries.listByWebhook(created.webhook.id, 1))[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastStatusCode: null,
      lastError: 'timed out after 100 ms',
      deliveredAt: null,
    });
  });

  it('posts nothing for a delivery no longer pending, or of a deleted endpoint', async () => {
    const { deliver, transport, delivery, created, remove } = await oneDelivery();
    await deliver.execute({ deliveryId: delivery.id }, { attempt: 1, maxAttempts: 3 });
    expect(await deliver.execute({ deliveryId: delivery.id }, { attempt: 1, maxAttempts: 3 })).toBe(
      'gone',
    );
    await remove.execute(7, created.webhook.id);
    expect(await deliver.execute({ deliveryId: 'x' }, { attempt: 1, maxAttempts: 3 })).toBe('gone');
    expect(transport.requests).toHaveLength(1);
  });

  it('signs with the rotated secret from the rotation on', async () => {
    const { deliver, transport, delivery, rotate, created, clock } = await oneDelivery();
    const rotated = await rotate.execute(7, created.webhook.id);
    await deliver.execute({ deliveryId: delivery.id }, { attempt: 1, maxAttempts: 3 });
    const [request] = transport.requests;
    const check = (secret: string) =>
      verifyWebhookSignature({
        secret,
        timestamp: request.headers['Gpumkt-Webhook-Timestamp'],
        signature: request.headers['Gpumkt-Webhook-Signature'],
        rawBody: request.body,
        nowSeconds: Math.floor(clock.nowMs() / 1000),
      });
    expect([check(rotated.secret), check(created.secret)]).toEqual(['valid', 'bad_signature']);
  });
});
