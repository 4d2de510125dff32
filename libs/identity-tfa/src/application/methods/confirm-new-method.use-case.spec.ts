import { totpSecretAad } from '../../domain/tfa-method';
import { encodeBase32, totpCodeForStep, totpStepAt } from '../../domain/totp';
import { ORIGIN, otherThan, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { ConfirmNewMethodUseCase } from './confirm-new-method.use-case';

const PHONE = '+14155550123';
const APP_SECRET = encodeBase32(Buffer.alloc(20, 3));

async function setup() {
  const kit = tfaTestKit();
  const confirm = new ConfirmNewMethodUseCase(
    kit.lookup,
    kit.methods,
    kit.users,
    kit.gate,
    kit.challenges,
    kit.verifier,
    kit.backupCodeIssuer,
    kit.records,
    kit.uow,
    kit.secrets,
    kit.clock,
    kit.eventLog,
  );
  kit.users.add({ id: 7 });
  await kit.gate.grant(7);
  const appCode = () => totpCodeForStep(APP_SECRET, totpStepAt(kit.clock.nowMs()));
  /** The code POST /tfa/sms/ sends to a new number (a verify challenge). */
  const smsCode = async (phone = PHONE) => {
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', phone, null);
    return { secret, code: await kit.lastCode() };
  };
  return { kit, confirm, appCode, smsCode };
}

describe('ConfirmNewMethodUseCase', () => {
  it('refuses a missing code, email, and a caller outside the authorization window', async () => {
    const { kit, confirm, appCode } = await setup();
    const totp = { userId: 7, tfaMethod: 'totp' as const, secret: APP_SECRET, origin: ORIGIN };
    expect((await rejection(confirm.execute(totp))).code).toBe('missing_code');
    expect(
      (await rejection(confirm.execute({ ...totp, tfaMethod: 'email', code: appCode() }))).code,
    ).toBe('invalid_tfa_method');
    kit.clock.advance(30 * 60_000 + 1);
    expect((await rejection(confirm.execute({ ...totp, code: appCode() }))).code).toBe(
      'authorization_required',
    );
    expect(kit.methods.rows.size).toBe(0);
  });

  it('the first method: stored as primary with its step used, 2FA on, 10 backup codes', async () => {
    const { kit, confirm, appCode } = await setup();
    const confirmed = await confirm.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethod: 'totp',
      code: appCode(),
      secret: APP_SECRET.toLowerCase(),
    });
    expect(confirmed.method).toMatchObject({
      kind: 'method',
      userId: 7,
      type: 'totp',
      label: 'Authenticator app',
      isPrimary: true,
      failCount: 0,
      lockedUntilSeconds: null,
    });
    expect(confirmed.backupCodes).toHaveLength(10);
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
    expect(kit.users.rows.get(7)?.user).toMatchObject({ tfaEnabled: true, tfaStatus: 'enabled' });
    const [stored] = await kit.methods.listByUser(7);
    expect(stored.lastTotpStep).toBe(totpStepAt(kit.clock.nowMs()));
    expect(kit.secrets.decrypt(stored.totpSecretCiphertext!, totpSecretAad(stored.id))).toBe(
      APP_SECRET,
    );
  });

  it('an app code that does not match the secret stores nothing; a bad secret is bad_request', async () => {
    const { kit, confirm, appCode } = await setup();
    const wrong = await rejection(
      confirm.execute({
        origin: ORIGIN,
        userId: 7,
        tfaMethod: 'totp',
        code: otherThan(appCode()),
        secret: APP_SECRET,
      }),
    );
    expect(wrong.code).toBe('2fa_verification_failed');
    const malformed = await rejection(
      confirm.execute({
        origin: ORIGIN,
        userId: 7,
        tfaMethod: 'totp',
        code: appCode(),
        secret: 'not base32!',
      }),
    );
    expect(malformed.code).toBe('bad_request');
    expect(kit.methods.rows.size).toBe(0);
  });

  it('one method per type', async () => {
    const { kit, confirm, appCode } = await setup();
    await kit.addTotpMethod(7);
    const error = await rejection(
      confirm.execute({
        origin: ORIGIN,
        userId: 7,
        tfaMethod: 'totp',
        code: appCode(),
        secret: APP_SECRET,
      }),
    );
    expect(error.code).toBe('duplicate_tfa_method');
    expect(kit.methods.rows.size).toBe(1);
  });

  it('an SMS method: the code sent to that number, for a later method no backup codes', async () => {
    const { kit, confirm, smsCode } = await setup();
    await kit.addTotpMethod(7);
    const { secret, code } = await smsCode();
    const confirmed = await confirm.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethod: 'sms',
      code,
      secret,
      phoneNumber: PHONE,
      label: 'work',
    });
    expect(confirmed.backupCodes).toBeUndefined();
    expect(confirmed.method).toMatchObject({
      type: 'sms',
      label: 'work',
      isPrimary: false,
      maskedPhoneNumber: '********0123',
    });
  });

  it('an SMS method needs the number the code went to, on a verify challenge of the caller', async () => {
    const { kit, confirm, smsCode } = await setup();
    const { secret, code } = await smsCode();
    const sms = { userId: 7, tfaMethod: 'sms' as const, code, secret, origin: ORIGIN };
    expect((await rejection(confirm.execute(sms))).code).toBe('missing_phone_number');
    expect((await rejection(confirm.execute({ ...sms, phoneNumber: '+14155550999' }))).code).toBe(
      'phone_number_mismatch',
    );
    const login = await kit.challenges.open(7, 'login');
    expect(
      (await rejection(confirm.execute({ ...sms, secret: login.secret, phoneNumber: PHONE }))).code,
    ).toBe('challenge_not_found');
    expect(kit.methods.rows.size).toBe(0);
  });

  it("a wrong SMS code counts against the user's SMS channel", async () => {
    const { kit, confirm, smsCode } = await setup();
    const { secret, code } = await smsCode();
    const error = await rejection(
      confirm.execute({
        origin: ORIGIN,
        userId: 7,
        tfaMethod: 'sms',
        code: otherThan(code),
        secret,
        phoneNumber: PHONE,
      }),
    );
    expect(error.code).toBe('2fa_verification_failed');
    expect(error.message).toBe('Invalid SMS code.');
    expect(error.details).toEqual({ fail_count: 1, locked_until: null });
    expect(await kit.failCount(7, 'sms')).toBe(1);
  });

  it('the deprecated test-submit refuses a legacy account', async () => {
    const { kit, confirm, appCode } = await setup();
    kit.users.add({ id: 7, tfaStatus: 'legacy', tfaEnabled: true, phoneNumber: PHONE });
    const error = await rejection(
      confirm.execute({
        origin: ORIGIN,
        userId: 7,
        tfaMethod: 'totp',
        code: appCode(),
        secret: APP_SECRET,
        rejectLegacy: true,
      }),
    );
    expect(error.code).toBe('untracked_2fa_found');
  });
});

describe('ConfirmNewMethodUseCase: events', () => {
  it('the first method records method_added (mailed) and tfa_enabled; a further one method_added', async () => {
    const { kit, confirm, appCode, smsCode } = await setup();
    const first = await confirm.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethod: 'totp',
      code: appCode(),
      secret: APP_SECRET,
    });
    expect(kit.eventKinds(7)).toEqual(['method_added:totp', 'tfa_enabled:totp']);
    expect(kit.events.rows[0].details).toEqual({ method_id: first.method.id });
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[0].id]);
    const { secret, code } = await smsCode();
    await confirm.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethod: 'sms',
      code,
      secret,
      phoneNumber: PHONE,
    });
    expect(kit.eventKinds(7)).toEqual([
      'method_added:totp',
      'tfa_enabled:totp',
      'method_added:sms',
    ]);
    expect(JSON.stringify(kit.events.rows)).not.toContain(PHONE);
  });

  it('a duplicate type records nothing', async () => {
    const { kit, confirm, appCode } = await setup();
    const command = { origin: ORIGIN, userId: 7, tfaMethod: 'totp' as const, secret: APP_SECRET };
    await confirm.execute({ ...command, code: appCode() });
    kit.clock.advance(30_000);
    await rejection(confirm.execute({ ...command, code: appCode() }));
    expect(kit.events.rows).toHaveLength(2);
  });
});
