import { rejection } from '@app/platform/testing';
import { webhookSecretAad } from '../../domain/webhook';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('RotateWebhookSecretUseCase', () => {
  it('replaces the secret with a fresh one, answered once', async () => {
    const { create, rotate, webhooks, secrets } = webhooksKit();
    const created = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const rotated = await rotate.execute(7, created.webhook.id);
    expect(rotated.webhook).toEqual(created.webhook);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const ciphertext = webhooks.rows.get(created.webhook.id)!.secretCiphertext;
    expect(secrets.decrypt(ciphertext, webhookSecretAad(created.webhook.id))).toBe(rotated.secret);
  });

  it("leaves another owner's endpoint alone", async () => {
    const { create, rotate, webhooks } = webhooksKit();
    const created = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    const before = webhooks.rows.get(created.webhook.id)!.secretCiphertext;
    expect((await rejection(rotate.execute(8, created.webhook.id))).code).toBe('webhook_not_found');
    expect(webhooks.rows.get(created.webhook.id)!.secretCiphertext).toBe(before);
  });
});
