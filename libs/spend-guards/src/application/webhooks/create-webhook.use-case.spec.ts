import { rejection } from '@app/platform/testing';
import { webhookSecretAad } from '../../domain/webhook';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('CreateWebhookUseCase', () => {
  const OWNER = 7;

  it('stores the endpoint with every event type by default and answers its secret once', async () => {
    const { create, webhooks, secrets, clock } = webhooksKit();
    const { webhook, secret } = await create.execute({
      ownerKey: OWNER,
      url: 'https://hooks.example.com/in',
    });
    expect(webhook).toEqual({
      id: expect.stringMatching(/^wh_[A-Za-z0-9]+$/),
      ownerKey: OWNER,
      url: 'https://hooks.example.com/in',
      events: ['budget.threshold_crossed', 'webhook.test'],
      description: '',
      createdAt: new Date(clock.nowMs()),
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = webhooks.rows.get(webhook.id)!;
    expect(stored.secretCiphertext).not.toContain(secret.slice(6));
    expect(secrets.decrypt(stored.secretCiphertext, webhookSecretAad(webhook.id))).toBe(secret);
    expect(secrets.decrypt(stored.secretCiphertext, webhookSecretAad('wh_other'))).toBeNull();
  });

  it('keeps the events and description given', async () => {
    const { create } = webhooksKit();
    const { webhook } = await create.execute({
      ownerKey: OWNER,
      url: 'http://127.0.0.1:9/in',
      events: ['webhook.test'],
      description: 'bot',
    });
    expect(webhook).toMatchObject({ events: ['webhook.test'], description: 'bot' });
  });

  it('refuses what the domain refuses, with its code, storing nothing', async () => {
    const { create, webhooks } = webhooksKit();
    const cases: [{ url: string; events?: string[]; description?: string }, string][] = [
      [{ url: 'https://u:p@hooks.example.com/' }, 'webhook_url_invalid'],
      [{ url: 'https://hooks.example.com/', events: [] }, 'webhook_events_invalid'],
      [{ url: 'https://hooks.example.com/', events: ['x'] }, 'webhook_events_invalid'],
      [
        { url: 'https://hooks.example.com/', description: 'a\u0000' },
        'webhook_description_invalid',
      ],
    ];
    for (const [fields, code] of cases) {
      const error = await rejection(create.execute({ ownerKey: OWNER, ...fields }));
      expect(error.code).toBe(code);
    }
    expect(webhooks.rows.size).toBe(0);
  });

  it('refuses http and private hosts in production', async () => {
    const { create } = webhooksKit({ settings: { production: true } });
    expect(
      (await rejection(create.execute({ ownerKey: OWNER, url: 'http://hooks.example.com/' })))
        .message,
    ).toBe('url must use https');
    expect(
      (await rejection(create.execute({ ownerKey: OWNER, url: 'https://10.0.0.1/' }))).code,
    ).toBe('webhook_url_invalid');
  });

  it('refuses an eleventh endpoint of one owner, not of another', async () => {
    const { create, webhooks } = webhooksKit();
    for (let i = 0; i < 10; i += 1)
      await create.execute({ ownerKey: OWNER, url: `https://hooks.example.com/${i}` });
    const error = await rejection(
      create.execute({ ownerKey: OWNER, url: 'https://hooks.example.com/11' }),
    );
    expect([error.code, error.message]).toEqual([
      'webhook_limit_reached',
      'at most 10 webhooks per owner; delete one first',
    ]);
    expect(await webhooks.countByOwner(OWNER)).toBe(10);
    await create.execute({ ownerKey: -3, url: 'https://hooks.example.com/team' });
  });
});
