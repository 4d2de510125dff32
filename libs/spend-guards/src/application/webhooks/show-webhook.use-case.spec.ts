import { rejection } from '@app/platform/testing';
import { webhooksKit } from '../../testing/webhooks-kit';

describe('ShowWebhookUseCase', () => {
  it("answers the owner's endpoint, and one 404 for another's, an unknown or a malformed id", async () => {
    const { create, show } = webhooksKit();
    const { webhook } = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    expect(await show.execute(7, webhook.id)).toEqual(webhook);
    for (const [owner, id] of [
      [8, webhook.id],
      [7, 'wh_unknown'],
      [7, '../x'],
    ] as const) {
      const error = await rejection(show.execute(owner, id));
      expect([error.code, error.message]).toEqual(['webhook_not_found', 'no such webhook']);
    }
  });
});
