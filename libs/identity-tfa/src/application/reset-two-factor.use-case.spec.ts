import { OPERATOR_ORIGIN } from '@app/platform';
import { ORIGIN, rejection, tfaTestKit } from '../testing/tfa-test-kit';
import { ResetTwoFactorUseCase } from './reset-two-factor.use-case';

async function setup() {
  const kit = tfaTestKit();
  const reset = new ResetTwoFactorUseCase(
    kit.users,
    kit.methods,
    kit.backupCodes,
    kit.sessions,
    kit.deviceTrust,
    kit.eventLog,
    kit.uow,
    kit.clock,
  );
  kit.addUser(7);
  await kit.addTotpMethod(7);
  await kit.addSmsMethod(7, '+14155550123', false);
  const codes = await kit.backupCodeIssuer.issue(7);
  const { token } = await kit.deviceTrust.trust(7, ORIGIN);
  kit.events.rows = [];
  kit.noticeQueue.jobs.length = 0;
  return { kit, reset, codes, token };
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
    expect(await kit.methods.listByUser(7)).toEqual([]);
    expect(await kit.backupCodes.countUnused(7)).toBe(0);
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
      methods_removed: 2,
      backup_codes_revoked: 10,
      sessions_revoked: 2,
      devices_revoked: 1,
    });
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[1].id]);
  });

  it('refuses a missing or overlong reason, and an unknown user, changing nothing', async () => {
    const { kit, reset } = await setup();
    for (const reason of ['', '  ', 'x'.repeat(501), undefined as unknown as string])
      expect((await rejection(reset.execute({ userId: 7, reason }))).code).toBe('bad_request');
    const unknown = await rejection(reset.execute({ userId: 99, reason: 'x' }));
    expect([unknown.code, unknown.message]).toEqual(['not_found', 'No user 99']);
    expect(await kit.methods.listByUser(7)).toHaveLength(2);
    expect(kit.events.rows).toEqual([]);
  });

  it('a reset that fails halfway changes nothing and records nothing', async () => {
    const { kit, reset, token } = await setup();
    kit.sessions.revokeAll = async () => {
      throw new Error('connection lost');
    };
    await expect(reset.execute({ userId: 7, reason: 'x' })).rejects.toThrow('connection lost');
    expect(await kit.methods.listByUser(7)).toHaveLength(2);
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
    expect(await kit.deviceTrust.find(7, token)).not.toBeNull();
    expect(kit.events.rows).toEqual([]);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });
});
