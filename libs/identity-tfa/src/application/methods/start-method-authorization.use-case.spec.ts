import { TfaError } from '../../domain/errors';
import { ORIGIN, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { StartMethodAuthorizationUseCase } from './start-method-authorization.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const start = new StartMethodAuthorizationUseCase(
    kit.lookup,
    kit.methods,
    kit.verifier,
    kit.challenges,
    kit.gate,
    kit.smsBudget,
    kit.emailBudget,
  );
  kit.addUser(7);
  return { kit, start };
}

describe('StartMethodAuthorizationUseCase', () => {
  it('a backup code opens the window at once; a wrong one opens nothing', async () => {
    const { kit, start } = await setup();
    await kit.addTotpMethod(7);
    const [code] = await kit.backupCodeIssuer.issue(7);
    const wrong = await rejection(
      start.execute({ origin: ORIGIN, userId: 7, backupCode: 'ZZZZ-ZZZZ-ZZZ2' }),
    );
    expect(wrong.code).toBe('invalid_backup_code');
    expect(await kit.gate.isGranted(7)).toBe(false);
    expect(await start.execute({ origin: ORIGIN, userId: 7, backupCode: code })).toEqual({
      kind: 'granted',
    });
    expect(await kit.gate.isGranted(7)).toBe(true);
    expect(await kit.backupCodes.countUnused(7)).toBe(9);
  });

  it('a user without methods authorizes by email, whatever was asked for', async () => {
    const { kit, start } = await setup();
    const result = await start.execute({ origin: ORIGIN, userId: 7, tfaMethod: 'sms' });
    expect(result.kind).toBe('challenge');
    const secret = result.kind === 'challenge' ? result.secret : '';
    expect(await kit.challenges.load(secret)).toMatchObject({
      purpose: 'authorize',
      channel: 'email',
      destination: 'user7@example.test',
    });
    expect(kit.queue.jobs).toHaveLength(1);
    expect(await kit.gate.isGranted(7)).toBe(false);
    // Within the email budgets; a second start supersedes the first authorization code.
    expect(kit.emailPolicy.admitted).toEqual([{ userId: 7, destination: 'user7@example.test' }]);
    const again = await start.execute({ origin: ORIGIN, userId: 7 });
    expect(again.kind).toBe('challenge');
    expect((await rejection(kit.challenges.load(secret))).code).toBe('no_challenge_found');
    kit.emailPolicy.refuseWith = new TfaError('sms_rate_limited', 'Too many email codes');
    expect((await rejection(start.execute({ origin: ORIGIN, userId: 7 }))).code).toBe(
      'sms_rate_limited',
    );
    expect(kit.queue.jobs).toHaveLength(2);
  });

  it('by default the primary method; an authenticator app is sent nothing', async () => {
    const { kit, start } = await setup();
    await kit.addSmsMethod(7, PHONE, false);
    const { method: app } = await kit.addTotpMethod(7, { isPrimary: true });
    const result = await start.execute({ origin: ORIGIN, userId: 7 });
    const secret = result.kind === 'challenge' ? result.secret : '';
    expect(await kit.challenges.load(secret)).toMatchObject({
      purpose: 'authorize',
      channel: 'totp',
      methodId: app.id,
      sends: 0,
    });
    expect(kit.queue.jobs).toEqual([]);
  });

  it('an SMS method gets its code within the SMS budgets', async () => {
    const { kit, start } = await setup();
    const phone = await kit.addSmsMethod(7, PHONE);
    const result = await start.execute({ origin: ORIGIN, userId: 7, tfaMethod: 'sms' });
    const secret = result.kind === 'challenge' ? result.secret : '';
    expect(await kit.challenges.load(secret)).toMatchObject({
      channel: 'sms',
      destination: PHONE,
      methodId: phone.id,
    });
    expect(kit.smsPolicy.admitted).toEqual([
      { userId: 7, destination: PHONE, resend: false, smsFraudFlagged: false },
    ]);
  });

  it('a type the user lacks is invalid_tfa_method; an unverified email sends nothing', async () => {
    const { kit, start } = await setup();
    await kit.addTotpMethod(7);
    expect(
      (await rejection(start.execute({ origin: ORIGIN, userId: 7, tfaMethod: 'sms' }))).code,
    ).toBe('invalid_tfa_method');
    kit.addUser(8, { emailVerifiedAt: null, isAdmin: true });
    await kit.addSmsMethod(8, PHONE);
    expect((await rejection(start.execute({ origin: ORIGIN, userId: 8 }))).code).toBe(
      'email_not_verified',
    );
    expect(kit.queue.jobs).toEqual([]);
  });

  it('a challenge store that is away is challenge_creation_failed', async () => {
    const { kit, start } = await setup();
    kit.store.failing = true;
    expect((await rejection(start.execute({ origin: ORIGIN, userId: 7 }))).code).toBe(
      'challenge_creation_failed',
    );
  });
});

describe('StartMethodAuthorizationUseCase: events', () => {
  it('a backup code that grants the window records backup_code_used, from where it came', async () => {
    const { kit, start } = await setup();
    await kit.addTotpMethod(7);
    const [code] = await kit.backupCodeIssuer.issue(7);
    await start.execute({ origin: ORIGIN, userId: 7, backupCode: code });
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        kind: 'backup_code_used',
        method: 'backup_code',
        details: { remaining: 9 },
        origin: ORIGIN,
      }),
    ]);
  });

  it('a grant the store refuses records no use', async () => {
    const { kit, start } = await setup();
    await kit.addTotpMethod(7);
    const [code] = await kit.backupCodeIssuer.issue(7);
    kit.authorizations.failing = true;
    await expect(start.execute({ origin: ORIGIN, userId: 7, backupCode: code })).rejects.toThrow();
    expect(kit.events.rows).toEqual([]);
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
  });
});
