import { rejection } from '@app/platform/testing';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { ListSecurityEventsUseCase } from './list-security-events.use-case';

async function setup(events = 5) {
  const kit = accountSecurityKit();
  const list = new ListSecurityEventsUseCase(kit.lookup, kit.events, kit.secrets);
  kit.addUser(7);
  kit.addUser(8);
  for (let i = 0; i < events; i += 1)
    await kit.eventLog.record({
      userId: 7,
      kind: 'login',
      method: 'totp',
      details: { trusted_device: false, n: i },
      origin: ORIGIN,
    });
  await kit.eventLog.record({
    userId: 8,
    kind: 'login',
    method: 'sms',
    details: {},
    origin: ORIGIN,
  });
  return { kit, list };
}

describe('ListSecurityEventsUseCase', () => {
  it('walks every event of the caller newest first, page by page, with no gap or repeat', async () => {
    const { list } = await setup(5);
    const seen: number[] = [];
    let afterToken: string | null = null;
    let pages = 0;
    do {
      const page = await list.execute({ userId: 7, limit: 2, afterToken });
      seen.push(...page.events.map((event) => event.details.n as number));
      expect(page.events.every((event) => event.userId === 7)).toBe(true);
      afterToken = page.nextToken;
      pages += 1;
    } while (afterToken !== null);
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    expect(pages).toBe(3);
  });

  it('a page that holds the rest has no next token', async () => {
    const { list } = await setup(2);
    expect((await list.execute({ userId: 7, limit: 2, afterToken: null })).nextToken).toBeNull();
    expect((await list.execute({ userId: 7, limit: 50, afterToken: null })).events).toHaveLength(2);
  });

  it("refuses another user's token and an altered one with invalid_token", async () => {
    const { list } = await setup(3);
    const { nextToken } = await list.execute({ userId: 7, limit: 1, afterToken: null });
    const other = await rejection(list.execute({ userId: 8, limit: 1, afterToken: nextToken }));
    expect([other.code, other.message]).toEqual(['invalid_token', 'Invalid pagination token']);
    const flipped = `${nextToken!.slice(0, -2)}${nextToken!.endsWith('A') ? 'B' : 'A'}A`;
    for (const token of [flipped, 'garbage', 'x'.repeat(600)])
      expect((await rejection(list.execute({ userId: 7, limit: 1, afterToken: token }))).code).toBe(
        'invalid_token',
      );
  });
});
