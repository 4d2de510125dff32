import { ORIGIN, otherThan, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { RegenerateBackupCodesUseCase } from './regenerate-backup-codes.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const regenerate = new RegenerateBackupCodesUseCase(
    kit.lookup,
    kit.methods,
    kit.users,
    kit.verifier,
    kit.backupCodeIssuer,
    kit.uow,
    kit.sessions,
    kit.eventLog,
    kit.deviceTrust,
  );
  return { kit, regenerate };
}

describe('RegenerateBackupCodesUseCase', () => {
  it('needs 2FA on', async () => {
    const { kit, regenerate } = await setup();
    kit.users.add({ id: 7 });
    const error = await rejection(
      regenerate.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { tfaMethod: 'totp', code: '123456' },
      }),
    );
    expect(error.code).toBe('2fa_verification_failed');
  });

  it('a verified request replaces the whole set and ends the other sessions', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7);
    const { codeAt } = await kit.addTotpMethod(7);
    const old = await kit.backupCodeIssuer.issue(7);
    const codes = await regenerate.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { tfaMethod: 'totp', code: codeAt(0) },
      keepSessionId: 31,
    });
    expect(codes).toHaveLength(10);
    expect(codes.some((code) => old.includes(code))).toBe(false);
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
    expect(kit.sessions.calls).toEqual([{ userId: 7, keepSessionId: 31 }]);
    const reuse = await rejection(
      regenerate.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: old[0] } }),
    );
    expect(reuse.code).toBe('invalid_backup_code');
  });

  it('a wrong code replaces nothing and ends no session', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7);
    const { codeAt } = await kit.addTotpMethod(7);
    const old = await kit.backupCodeIssuer.issue(7);
    const error = await rejection(
      regenerate.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { tfaMethod: 'totp', code: otherThan(codeAt(0)) },
      }),
    );
    expect(error.code).toBe('2fa_verification_failed');
    expect(kit.sessions.calls).toEqual([]);
    expect(
      (
        await kit.verifier.verify(
          kit.users.rows.get(7)!.user,
          { backupCode: old[0] },
          {
            purposes: [],
            failure: '2fa_verification_failed',
            origin: ORIGIN,
          },
        )
      ).kind,
    ).toBe('backup_code');
  });

  it('a legacy account gets its SMS method backfilled from the phone on file', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7, { tfaStatus: 'legacy', phoneNumber: PHONE });
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, null);
    await regenerate.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { code: await kit.lastCode(), secret },
    });
    expect(await kit.methods.listByUser(7)).toEqual([
      expect.objectContaining({
        type: 'sms',
        phoneNumber: PHONE,
        isPrimary: true,
        label: 'SMS 0123',
      }),
    ]);
    expect(kit.users.rows.get(7)?.user).toMatchObject({ tfaEnabled: true, tfaStatus: 'enabled' });
  });

  it('without a phone to backfill, nothing changes and the code stays usable', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7);
    const [code] = await kit.backupCodeIssuer.issue(7);
    const error = await rejection(
      regenerate.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: code } }),
    );
    expect(error.code).toBe('missing_phone_number');
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
    expect(kit.sessions.calls).toEqual([]);
  });
});

describe('RegenerateBackupCodesUseCase: events and trusted devices', () => {
  it('records the new set (mailed), the sessions ended and the devices revoked', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7);
    const { codeAt } = await kit.addTotpMethod(7);
    await kit.backupCodeIssuer.issue(7);
    const { token } = await kit.deviceTrust.trust(7, ORIGIN);
    kit.events.rows = [];
    kit.noticeQueue.jobs.length = 0;
    kit.sessions.live = 2;
    await regenerate.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { tfaMethod: 'totp', code: codeAt(0) },
    });
    expect(kit.eventKinds(7)).toEqual([
      'backup_codes_regenerated:backup_code',
      'session_revoked',
      'device_revoked',
    ]);
    expect(kit.events.rows[1].details).toEqual({ sessions: 2, cause: 'tfa_change' });
    expect(kit.events.rows[2].details).toEqual({ devices: 1, cause: 'tfa_change' });
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[0].id]);
    expect(await kit.deviceTrust.find(7, token)).toBeNull();
  });

  it('a legacy backfill records the SMS method added', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7, { tfaStatus: 'legacy', phoneNumber: PHONE });
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, null);
    await regenerate.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { code: await kit.lastCode(), secret },
    });
    expect(kit.eventKinds(7)).toEqual(['method_added:sms', 'backup_codes_regenerated:backup_code']);
    expect(kit.events.rows[0].details).toMatchObject({ legacy_backfill: true });
  });

  it('a refused regeneration records nothing', async () => {
    const { kit, regenerate } = await setup();
    kit.addUser(7);
    const [code] = await kit.backupCodeIssuer.issue(7);
    await rejection(
      regenerate.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: code } }),
    );
    expect(kit.events.rows).toEqual([]);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });
});
