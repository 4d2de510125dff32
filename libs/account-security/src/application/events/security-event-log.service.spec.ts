import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';

describe('SecurityEventLog', () => {
  it('records an event at the clock time; a notified kind owes a notice, queued after the commit', async () => {
    const kit = accountSecurityKit();
    let queuedDuringWork = -1;
    const event = await kit.uow.run(async () => {
      const recorded = await kit.eventLog.record({
        userId: 7,
        kind: 'method_added',
        method: 'totp',
        details: { method_id: 3 },
        origin: ORIGIN,
      });
      queuedDuringWork = kit.noticeQueue.jobs.length;
      return recorded;
    });
    expect(event).toMatchObject({ userId: 7, occurredAt: kit.clock.now(), origin: ORIGIN });
    expect(queuedDuringWork).toBe(0);
    expect(kit.noticeQueue.jobs).toEqual([{ eventId: event.id, awaitFirstAttempt: true }]);
    expect(await kit.notices.findPending(event.id)).toEqual(event);
  });

  it('a kind that is not notified, or notify: false, owes nothing', async () => {
    const kit = accountSecurityKit();
    const login = await kit.eventLog.record({
      userId: 7,
      kind: 'login',
      method: 'sms',
      details: { trusted_device: false },
      origin: ORIGIN,
    });
    const quiet = await kit.eventLog.record(
      { userId: 7, kind: 'method_removed', method: 'sms', details: {}, origin: ORIGIN },
      { notify: false },
    );
    expect(kit.noticeQueue.jobs).toEqual([]);
    expect(await kit.notices.findPending(login.id)).toBeNull();
    expect(await kit.notices.findPending(quiet.id)).toBeNull();
    expect(kit.eventKinds(7)).toEqual(['login:sms', 'method_removed:sms']);
  });

  it('a change that rolls back leaves no event, no notice and no job', async () => {
    const kit = accountSecurityKit();
    await expect(
      kit.uow.run(async () => {
        await kit.eventLog.record({
          userId: 7,
          kind: 'backup_codes_regenerated',
          method: 'backup_code',
          details: {},
          origin: ORIGIN,
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(kit.events.rows).toEqual([]);
    expect(kit.notices.rows.size).toBe(0);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });

  it('a queue that cannot be reached leaves the notice pending for the sweeper, and the change stands', async () => {
    const kit = accountSecurityKit();
    kit.noticeQueue.failing = true;
    const event = await kit.eventLog.record({
      userId: 7,
      kind: 'tfa_disabled',
      method: 'totp',
      details: {},
      origin: ORIGIN,
    });
    expect(await kit.notices.findPending(event.id)).toEqual(event);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });

  it('records ended sessions only when some ended', async () => {
    const kit = accountSecurityKit();
    await kit.eventLog.sessionsEnded(7, 0, 'logout', ORIGIN);
    expect(kit.events.rows).toEqual([]);
    await kit.eventLog.sessionsEnded(7, 3, 'tfa_change', ORIGIN);
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        kind: 'session_revoked',
        method: null,
        details: { sessions: 3, cause: 'tfa_change' },
      }),
    ]);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });
});
