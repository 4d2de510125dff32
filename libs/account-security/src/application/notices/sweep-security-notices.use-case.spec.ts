import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { SweepSecurityNoticesUseCase } from './sweep-security-notices.use-case';

describe('SweepSecurityNoticesUseCase', () => {
  it('queues again, without waiting, the notices still pending after the retry time', async () => {
    const kit = accountSecurityKit();
    const sweep = new SweepSecurityNoticesUseCase(
      kit.notices,
      kit.noticeQueue,
      kit.settings,
      kit.clock,
    );
    kit.noticeQueue.failing = true;
    const lost = await kit.eventLog.record({
      userId: 7,
      kind: 'backup_codes_regenerated',
      method: 'backup_code',
      details: {},
      origin: ORIGIN,
    });
    kit.clock.advance(59_000);
    const recent = await kit.eventLog.record({
      userId: 7,
      kind: 'method_added',
      method: 'totp',
      details: {},
      origin: ORIGIN,
    });
    kit.noticeQueue.failing = false;
    kit.clock.advance(1_001);
    expect(await sweep.execute()).toBe(1);
    expect(kit.noticeQueue.jobs).toEqual([{ eventId: lost.id, awaitFirstAttempt: false }]);
    await kit.notices.markSent(lost.id, kit.clock.now());
    kit.clock.advance(60_000);
    expect(await sweep.execute()).toBe(1);
    expect(kit.noticeQueue.jobs.at(-1)).toEqual({ eventId: recent.id, awaitFirstAttempt: false });
  });
});
