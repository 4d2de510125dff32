import { OPERATOR_ORIGIN } from '@app/platform';
import { rejection } from '@app/platform/testing';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { ResetTwoFactorUseCase } from './reset-two-factor.use-case';

async function setup() {
  const kit = accountSecurityKit();
  const reset = new ResetTwoFactorUseCase(
    kit.users,
    kit.secondFactor,
    kit.sessions,
    kit.deviceTrust,
    kit.eventLog,
    kit.uow,
    kit.clock,
    kit.lock,
  );
  kit.addUser(7);
  // A TOTP and an SMS method, and a set of ten backup codes.
  kit.secondFactor.give(7, 2, 10);
  const { token } = await kit.deviceTrust.trust(7, ORIGIN);
  kit.events.rows = [];
  kit.noticeQueue.jobs.length = 0;
  return { kit, reset, token };
}

describe('ResetTwoFactorUseCase', () => {
  it('removes every method, turns 2FA off, revokes codes, sessions and devices, and says how many', async () => {
    const { kit, reset, token } = await setup();
    kit.sessions.live = 3;
    const result = await reset.execute({ userId: 7, reason: 'lost phone; ID checked' });
    expect(result).toEqual({
      methodsRemoved: 2,
      backupCodesRevoked: 10,
      sessionsRevoked: 3,
      devicesRevoked: 1,
    });
    expect(kit.secondFactor.of(7)).toEqual({ methods: 0, backupCodes: 0 });
    expect(kit.lock.locked).toEqual([7]);
    expect(kit.users.rows.get(7)?.user).toMatchObject({ tfaEnabled: false, tfaStatus: 'disabled' });
    expect(kit.sessions.calls).toEqual([{ userId: 7 }]);
    expect(await kit.deviceTrust.find(7, token)).toBeNull();
  });

  it('records admin_reset with the reason (mailed), the devices and the sessions, as the operator', async () => {
    const { kit, reset } = await setup();
    kit.sessions.live = 2;
    await reset.execute({ userId: 7, reason: 'lost phone' });
    expect(kit.eventKinds(7)).toEqual(['device_revoked', 'admin_reset', 'session_revoked']);
    expect(kit.events.rows.every((event) => event.origin === OPERATOR_ORIGIN)).toBe(true);
    expect(kit.events.rows[1].details).toEqual({
      reason: 'lost phone',
      tfa_turned_off: true,
      methods_removed: 2,
      backup_codes_revoked: 10,
      sessions_revoked: 2,
      devices_revoked: 1,
    });
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[1].id]);
  });

  it('on an account with nothing to reset: the event is recorded, nothing is mailed', async () => {
    const { kit, reset } = await setup();
    kit.addUser(8, { tfaEnabled: false, tfaStatus: 'disabled' });
    await reset.execute({ userId: 8, reason: 'asked twice' });
    expect(kit.eventKinds(8)).toEqual(['admin_reset']);
    expect(kit.events.rows[0].details).toMatchObject({
      tfa_turned_off: false,
      methods_removed: 0,
      backup_codes_revoked: 0,
      sessions_revoked: 0,
      devices_revoked: 0,
    });
    expect(kit.noticeQueue.jobs).toEqual([]);
    // Sessions alone were ended: that is something, and it is mailed.
    kit.sessions.live = 1;
    await reset.execute({ userId: 8, reason: 'end the sessions' });
    expect(kit.noticeQueue.jobs).toHaveLength(1);
  });

  it('refuses a missing or overlong reason, and an unknown user, changing nothing', async () => {
    const { kit, reset } = await setup();
    for (const reason of ['', '  ', 'x'.repeat(501), undefined as unknown as string])
      expect((await rejection(reset.execute({ userId: 7, reason }))).code).toBe('bad_request');
    const unknown = await rejection(reset.execute({ userId: 99, reason: 'x' }));
    expect([unknown.code, unknown.message]).toEqual(['not_found', 'No user 99']);
    expect(kit.secondFactor.of(7)).toEqual({ methods: 2, backupCodes: 10 });
    expect(kit.events.rows).toEqual([]);
  });

  it('a reset that fails halfway changes nothing and records nothing', async () => {
    const { kit, reset, token } = await setup();
    kit.sessions.revokeAll = async () => {
      throw new Error('connection lost');
    };
    await expect(reset.execute({ userId: 7, reason: 'x' })).rejects.toThrow('connection lost');
    expect(kit.secondFactor.of(7)).toEqual({ methods: 2, backupCodes: 10 });
    expect(await kit.deviceTrust.find(7, token)).not.toBeNull();
    expect(kit.events.rows).toEqual([]);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });
});
