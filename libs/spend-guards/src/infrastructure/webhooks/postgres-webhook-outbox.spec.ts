import { webhooksKit } from '../../testing/webhooks-kit';

describe('PostgresWebhookOutbox', () => {
  it("records one delivery per subscribed endpoint of the owner in the caller's unit of work", async () => {
    const { create, outbox, uow, deliveries, queue } = webhooksKit();
    const all = (await create.execute({ ownerKey: 7, url: 'https://a.example/1' })).webhook;
    await create.execute({ ownerKey: 7, url: 'https://a.example/2', events: ['webhook.test'] });
    await create.execute({ ownerKey: 8, url: 'https://a.example/3' });
    const event = {
      id: 'evt_budget_1',
      type: 'budget.threshold_crossed' as const,
      createdAt: new Date(Date.UTC(2026, 0, 2)),
      data: { budget_id: 3, threshold: 80 },
    };
    const ids = await uow.run(() => outbox.record(7, event));
    expect(ids).toHaveLength(1);
    expect(await deliveries.findPending(ids[0])).toEqual({
      id: ids[0],
      webhookId: all.id,
      payload: {
        eventId: 'evt_budget_1',
        eventType: 'budget.threshold_crossed',
        body: '{"id":"evt_budget_1","type":"budget.threshold_crossed","created_at":1767312000,"data":{"budget_id":3,"threshold":80}}',
      },
    });
    await outbox.dispatch(ids);
    expect(queue.queued).toEqual(ids);
  });

  it('records nothing when the unit of work fails, and never throws on a queue away', async () => {
    const { create, outbox, uow, deliveries, queue } = webhooksKit();
    await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const event = { id: 'e', type: 'webhook.test' as const, createdAt: new Date(), data: {} };
    await expect(
      uow.run(async () => {
        await outbox.record(7, event);
        throw new Error('the budget write failed');
      }),
    ).rejects.toThrow('the budget write failed');
    expect(deliveries.rows.size).toBe(0);
    queue.failing = true;
    await expect(outbox.dispatch(['x'])).resolves.toBeUndefined();
  });
});
