import { webhooksKit } from '../../testing/webhooks-kit';

describe('ListWebhooksUseCase', () => {
  it("lists the owner's endpoints only, oldest first", async () => {
    const { create, list, clock } = webhooksKit();
    const first = await create.execute({ ownerKey: 7, url: 'https://a.example/1' });
    clock.advance(1000);
    const second = await create.execute({ ownerKey: 7, url: 'https://a.example/2' });
    await create.execute({ ownerKey: 8, url: 'https://a.example/3' });
    expect(await list.execute(7)).toEqual([first.webhook, second.webhook]);
  });
});
