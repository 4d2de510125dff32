import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { PruneSecurityEventsUseCase } from './prune-security-events.use-case';

const DAY_MS = 24 * 3600 * 1000;

describe('PruneSecurityEventsUseCase', () => {
  async function setup() {
    const kit = accountSecurityKit();
    const prune = new PruneSecurityEventsUseCase(kit.events, kit.uow, kit.settings, kit.clock);
    const at = (daysAgo: number) =>
      kit.events.append({
        userId: 7,
        kind: 'login',
        method: 'totp',
        details: {},
        origin: ORIGIN,
        occurredAt: new Date(kit.clock.nowMs() - daysAgo * DAY_MS),
      });
    return { kit, prune, at };
  }

  it('deletes the events older than the retention, in batches, and says how many and before when', async () => {
    const { kit, prune, at } = await setup();
    for (let i = 0; i < 2500; i += 1) await at(401);
    const kept = await at(399);
    const result = await prune.execute();
    expect(result).toEqual({ pruned: 2500, before: new Date(kit.clock.nowMs() - 400 * DAY_MS) });
    expect(kit.events.rows.map((event) => event.id)).toEqual([kept.id]);
  });

  it('--older-than-days replaces the setting', async () => {
    const { kit, prune, at } = await setup();
    await at(10);
    await at(5);
    expect((await prune.execute(7)).pruned).toBe(1);
    expect(kit.events.rows).toHaveLength(1);
    expect((await prune.execute(7)).pruned).toBe(0);
  });
});
