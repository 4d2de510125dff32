import { WebhookDeliveryRepository } from '../application/ports/webhook-delivery.repository.port';
import { WebhookRepository } from '../application/ports/webhook.repository.port';
import { testWebhook, testWebhookPayload } from './webhooks-kit';

/** What the contract runs against: both repositories over one store, and two owners. */
export interface WebhookRepositoriesSubject {
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  owner: number;
  stranger: number;
}

const AT = (seconds: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, seconds));

/**
 * One suite, run by a unit spec on the in-memory fakes and by an int-spec on PostgreSQL, so
 * the fakes the use-case tests rely on keep to what the real repositories do
 * (docs/architecture.md "Where do tests go?").
 */
export function webhookRepositoriesContract(
  setup: () => Promise<WebhookRepositoriesSubject>,
): void {
  let subject: WebhookRepositoriesSubject;

  beforeAll(async () => {
    subject = await setup();
  });

  it('stores an endpoint exactly and finds it for its owner only', async () => {
    const row = testWebhook({ ownerKey: subject.owner, description: 'mine', createdAt: AT(1) });
    const stored = await subject.webhooks.insert(row);
    const { secretCiphertext: _ciphertext, ...expected } = row;
    expect(stored).toEqual(expected);
    expect(await subject.webhooks.findOwned(subject.owner, row.id)).toEqual(expected);
    expect(await subject.webhooks.findOwned(subject.stranger, row.id)).toBeNull();
    expect(await subject.webhooks.findTarget(row.id)).toEqual({
      id: row.id,
      url: row.url,
      secretCiphertext: row.secretCiphertext,
    });
  });

  it("lists and counts an owner's endpoints only, oldest first", async () => {
    const owner = subject.owner + 1_000;
    const second = await subject.webhooks.insert(
      testWebhook({ ownerKey: owner, createdAt: AT(9) }),
    );
    const first = await subject.webhooks.insert(testWebhook({ ownerKey: owner, createdAt: AT(2) }));
    await subject.webhooks.insert(testWebhook({ ownerKey: subject.stranger }));
    expect((await subject.webhooks.listByOwner(owner)).map((row) => row.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(await subject.webhooks.countByOwner(owner)).toBe(2);
    expect(await subject.webhooks.countByOwner(owner + 1)).toBe(0);
  });

  it("replaces and deletes only the owner's endpoint; a delete takes its deliveries", async () => {
    const row = await subject.webhooks.insert(testWebhook({ ownerKey: subject.owner }));
    const delivery = await subject.deliveries.addPending(row.id, testWebhookPayload(), AT(3));
    expect(await subject.webhooks.replaceSecret(subject.stranger, row.id, 'x')).toBe(false);
    expect(await subject.webhooks.replaceSecret(subject.owner, row.id, 'rotated')).toBe(true);
    expect((await subject.webhooks.findTarget(row.id))?.secretCiphertext).toBe('rotated');
    expect(await subject.webhooks.deleteOwned(subject.stranger, row.id)).toBe(false);
    expect(await subject.webhooks.deleteOwned(subject.owner, row.id)).toBe(true);
    expect(await subject.webhooks.deleteOwned(subject.owner, row.id)).toBe(false);
    expect(await subject.webhooks.findTarget(row.id)).toBeNull();
    expect(await subject.deliveries.findPending(delivery)).toBeNull();
  });

  it("records one pending delivery per endpoint of the owner subscribed to the event's type", async () => {
    const owner = subject.owner + 2_000;
    const all = await subject.webhooks.insert(testWebhook({ ownerKey: owner }));
    const testsOnly = await subject.webhooks.insert(
      testWebhook({ ownerKey: owner, events: ['webhook.test'] }),
    );
    await subject.webhooks.insert(testWebhook({ ownerKey: owner + 1 }));
    const payload = testWebhookPayload({ eventType: 'budget.threshold_crossed', eventId: 'evt_b' });
    const ids = await subject.deliveries.addForSubscribers(owner, payload, AT(4));
    expect(ids).toHaveLength(1);
    expect(await subject.deliveries.findPending(ids[0])).toEqual({
      id: ids[0],
      webhookId: all.id,
      payload,
    });
    expect(await subject.deliveries.listByWebhook(testsOnly.id, 10)).toEqual([]);
    expect(await subject.deliveries.addForSubscribers(owner + 3, payload, AT(4))).toEqual([]);
  });

  it('keeps the body byte for byte and answers it for its endpoint only', async () => {
    const webhook = await subject.webhooks.insert(testWebhook({ ownerKey: subject.owner }));
    const other = await subject.webhooks.insert(testWebhook({ ownerKey: subject.owner }));
    const payload = testWebhookPayload({ body: '{"b":1,  "a":"é"}' });
    const id = await subject.deliveries.addPending(webhook.id, payload, AT(5));
    expect(await subject.deliveries.findPayload(webhook.id, id)).toEqual(payload);
    expect(await subject.deliveries.findPayload(other.id, id)).toBeNull();
  });

  it('counts attempts, keeps a delivery pending until it succeeds or fails for good', async () => {
    const webhook = await subject.webhooks.insert(testWebhook({ ownerKey: subject.owner }));
    const id = await subject.deliveries.addPending(webhook.id, testWebhookPayload(), AT(6));
    const [fresh] = await subject.deliveries.listByWebhook(webhook.id, 10);
    expect(fresh).toEqual({
      id,
      webhookId: webhook.id,
      eventId: 'evt_test1',
      eventType: 'webhook.test',
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      createdAt: AT(6),
      lastAttemptAt: null,
      deliveredAt: null,
    });
    await subject.deliveries.recordAttempt(id, {
      result: { statusCode: 500, error: 'HTTP 500' },
      at: AT(7),
      status: 'pending',
    });
    expect(await subject.deliveries.findPending(id)).not.toBeNull();
    expect(
      await subject.deliveries.recordAttempt(id, {
        result: { statusCode: 200, error: null },
        at: AT(8),
        status: 'succeeded',
      }),
    ).toBe(true);
    expect(await subject.deliveries.findPending(id)).toBeNull();
    expect(
      await subject.deliveries.recordAttempt(id, {
        result: { statusCode: 500, error: 'late' },
        at: AT(9),
        status: 'failed',
      }),
    ).toBe(false);
    expect((await subject.deliveries.listByWebhook(webhook.id, 10))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
      lastAttemptAt: AT(8),
      deliveredAt: AT(8),
    });
  });

  it('lists the newest deliveries first, at most the limit', async () => {
    const webhook = await subject.webhooks.insert(testWebhook({ ownerKey: subject.owner }));
    const old = await subject.deliveries.addPending(webhook.id, testWebhookPayload(), AT(1));
    const newer = await subject.deliveries.addPending(webhook.id, testWebhookPayload(), AT(30));
    const middle = await subject.deliveries.addPending(webhook.id, testWebhookPayload(), AT(10));
    const listed = await subject.deliveries.listByWebhook(webhook.id, 2);
    expect(listed.map((row) => row.id)).toEqual([newer, middle]);
    expect(listed.map((row) => row.id)).not.toContain(old);
  });

  it('answers the deliveries pending since before a time, oldest first', async () => {
    const webhook = await subject.webhooks.insert(testWebhook({ ownerKey: subject.owner }));
    const early = new Date(Date.UTC(2000, 0, 1));
    const first = await subject.deliveries.addPending(webhook.id, testWebhookPayload(), early);
    const second = await subject.deliveries.addPending(
      webhook.id,
      testWebhookPayload(),
      new Date(early.getTime() + 1000),
    );
    const done = await subject.deliveries.addPending(webhook.id, testWebhookPayload(), early);
    await subject.deliveries.recordAttempt(done, {
      result: { statusCode: 204, error: null },
      at: AT(1),
      status: 'succeeded',
    });
    await subject.deliveries.addPending(webhook.id, testWebhookPayload(), AT(1));
    const due = await subject.deliveries.pendingSince(new Date(early.getTime() + 5000), 100);
    expect(due).toEqual([first, second]);
    expect(await subject.deliveries.pendingSince(new Date(early.getTime() + 5000), 1)).toEqual([
      first,
    ]);
  });
}
