import { ORIGIN, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { RemoveMethodUseCase } from './remove-method.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const remove = new RemoveMethodUseCase(
    kit.lookup,
    kit.methods,
    kit.backupCodes,
    kit.users,
    kit.verifier,
    kit.uow,
    kit.clock,
    kit.sessions,
    kit.eventLog,
    kit.deviceTrust,
  );
  kit.addUser(7);
  return { kit, remove };
}

describe('RemoveMethodUseCase', () => {
  it('refuses what it cannot do before any code is compared or spent', async () => {
    const { kit, remove } = await setup();
    const { codeAt } = await kit.addTotpMethod(7);
    const [code] = await kit.backupCodeIssuer.issue(7);
    kit.addUser(8);
    const foreign = await kit.addSmsMethod(8, PHONE);
    const noTarget = await rejection(
      remove.execute({ origin: ORIGIN, userId: 7, factor: { backupCode: code } }),
    );
    expect(noTarget.code).toBe('bad_request');
    const notOwned = await rejection(
      remove.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { backupCode: code },
        targetId: foreign.id,
      }),
    );
    expect(notOwned.code).toBe('not_found');
    const byEmail = await rejection(
      remove.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { tfaMethod: 'email', code: codeAt(0), secret: 's' },
      }),
    );
    expect(byEmail.code).toBe('bad_request');
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
    expect(await kit.methods.findById(foreign.id)).not.toBeNull();
    expect(kit.sessions.calls).toEqual([]);
  });

  it('removes the verifying method by default; the oldest remaining becomes primary', async () => {
    const { kit, remove } = await setup();
    const { method: app, codeAt } = await kit.addTotpMethod(7);
    const phone = await kit.addSmsMethod(7, PHONE, false);
    const result = await remove.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { tfaMethod: 'totp', code: codeAt(0) },
      keepSessionId: 12,
    });
    expect(result).toEqual({ disabled: false, remainingMethods: 1 });
    expect(await kit.methods.findById(app.id)).toBeNull();
    expect((await kit.methods.findById(phone.id))!.isPrimary).toBe(true);
    expect(kit.sessions.calls).toEqual([{ userId: 7, keepSessionId: 12 }]);
  });

  it('removing the last method turns 2FA off and retires the backup codes', async () => {
    const { kit, remove } = await setup();
    const { method: app } = await kit.addTotpMethod(7);
    const codes = await kit.backupCodeIssuer.issue(7);
    const result = await remove.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { backupCode: codes[0] },
      targetId: app.id,
    });
    expect(result).toEqual({ disabled: true });
    expect(await kit.methods.listByUser(7)).toEqual([]);
    expect(await kit.backupCodes.countUnused(7)).toBe(0);
    expect(kit.users.rows.get(7)?.user).toMatchObject({ tfaEnabled: false, tfaStatus: 'disabled' });
    // The code's event says what is left after the change: none (the set went with 2FA).
    const used = kit.events.rows.find((event) => event.kind === 'backup_code_used');
    expect(used?.details).toEqual({ remaining: 0 });
  });

  it('on a legacy account, disables 2FA', async () => {
    const { kit, remove } = await setup();
    kit.addUser(7, { tfaStatus: 'legacy', phoneNumber: PHONE });
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, null);
    const result = await remove.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { code: await kit.lastCode(), secret },
    });
    expect(result).toEqual({ disabled: true });
    expect(kit.users.rows.get(7)?.user).toMatchObject({ tfaEnabled: false, tfaStatus: 'disabled' });
  });

  it('a wrong code removes nothing', async () => {
    const { kit, remove } = await setup();
    const { method: app } = await kit.addTotpMethod(7);
    await kit.backupCodeIssuer.issue(7);
    const error = await rejection(
      remove.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { backupCode: 'ZZZZ-ZZZZ-ZZZ2' },
        targetId: app.id,
      }),
    );
    expect(error.code).toBe('invalid_backup_code');
    expect(await kit.methods.findById(app.id)).not.toBeNull();
    expect(kit.sessions.calls).toEqual([]);
  });
});

describe('RemoveMethodUseCase: events and trusted devices', () => {
  it('records method_removed (mailed) and revokes every trusted device in the same change', async () => {
    const { kit, remove } = await setup();
    const { method: app, codeAt } = await kit.addTotpMethod(7);
    const phone = await kit.addSmsMethod(7, PHONE, false);
    const { token } = await kit.deviceTrust.trust(7, ORIGIN);
    kit.events.rows = [];
    kit.noticeQueue.jobs.length = 0;
    await remove.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { tfaMethod: 'totp', code: codeAt(0) },
      targetId: phone.id,
    });
    expect(kit.eventKinds(7)).toEqual(['method_removed:sms', 'device_revoked']);
    expect(kit.events.rows[0].details).toEqual({ method_id: phone.id });
    expect(kit.events.rows[1].details).toEqual({ devices: 1, cause: 'tfa_change' });
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[0].id]);
    expect(await kit.deviceTrust.find(7, token)).toBeNull();
    expect(await kit.methods.findById(app.id)).not.toBeNull();
  });

  it('removing the last method records method_removed and tfa_disabled, and mails once', async () => {
    const { kit, remove } = await setup();
    const { codeAt } = await kit.addTotpMethod(7);
    await remove.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { tfaMethod: 'totp', code: codeAt(0) },
    });
    expect(kit.eventKinds(7)).toEqual(['method_removed:totp', 'tfa_disabled:totp']);
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[1].id]);
  });

  it('on a legacy account, records tfa_disabled', async () => {
    const { kit, remove } = await setup();
    kit.addUser(7, { tfaStatus: 'legacy', phoneNumber: PHONE });
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, null);
    await remove.execute({
      origin: ORIGIN,
      userId: 7,
      factor: { code: await kit.lastCode(), secret },
    });
    expect(kit.eventKinds(7)).toEqual(['tfa_disabled:sms']);
    expect(kit.events.rows[0].details).toEqual({ legacy: true });
  });

  it('a removal that fails after the code matched records nothing and keeps the devices', async () => {
    const { kit, remove } = await setup();
    const { codeAt } = await kit.addTotpMethod(7);
    const phone = await kit.addSmsMethod(7, PHONE, false);
    const { token } = await kit.deviceTrust.trust(7, ORIGIN);
    const before = kit.events.rows.length;
    kit.methods.delete = async () => {
      throw new Error('connection lost');
    };
    await expect(
      remove.execute({
        origin: ORIGIN,
        userId: 7,
        factor: { tfaMethod: 'totp', code: codeAt(0) },
        targetId: phone.id,
      }),
    ).rejects.toThrow('connection lost');
    expect(kit.events.rows).toHaveLength(before);
    expect(await kit.deviceTrust.find(7, token)).not.toBeNull();
    expect(kit.noticeQueue.jobs).toHaveLength(1);
  });
});
