import { rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { ResendSmsCodeUseCase } from './resend-sms-code.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const resend = new ResendSmsCodeUseCase(kit.lookup, kit.methods, kit.challenges, kit.smsBudget);
  kit.addUser(7);
  const phone = await kit.addSmsMethod(7, PHONE);
  /** What POST /tfa/sms/ leaves: a verify challenge with its first SMS. */
  const sent = async () => {
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', PHONE, phone.id);
    return { secret, challenge, code: await kit.lastCode() };
  };
  return { kit, resend, phone, sent };
}

describe('ResendSmsCodeUseCase', () => {
  it('sends the same code again, as a further send charged as a resend', async () => {
    const { kit, resend, sent } = await setup();
    const { secret, code } = await sent();
    expect(await resend.execute({ userId: 7, secret })).toEqual({ secret });
    expect(await kit.lastCode()).toBe(code);
    expect(kit.queue.jobs.map((job) => job.sendNumber)).toEqual([1, 2]);
    expect(kit.smsPolicy.admitted).toEqual([
      { userId: 7, destination: PHONE, resend: true, smsFraudFlagged: false },
    ]);
  });

  it('a login challenge without a code gets its first one, charged as a first send', async () => {
    const { kit, resend, phone } = await setup();
    const login = await kit.challenges.open(7, 'login');
    expect(await resend.execute({ secret: login.secret })).toEqual({ secret: login.secret });
    expect(await kit.challenges.load(login.secret)).toMatchObject({
      channel: 'sms',
      destination: PHONE,
      methodId: phone.id,
      sends: 1,
    });
    expect(kit.smsPolicy.admitted).toEqual([expect.objectContaining({ resend: false })]);
  });

  it('with a Bearer token and no secret, recovers the pending SMS under a fresh secret', async () => {
    const { kit, resend, sent } = await setup();
    const { secret, challenge, code } = await sent();
    const recovered = await resend.execute({ userId: 7 });
    expect(recovered.secret).not.toBe(secret);
    expect((await rejection(kit.challenges.load(secret))).code).toBe('no_challenge_found');
    const moved = await kit.challenges.load(recovered.secret);
    expect(moved.id).toBe(challenge.id);
    expect(kit.challenges.codeMatches(moved, code)).toBe(true);
    expect(await kit.lastCode()).toBe(code);
    kit.addUser(8);
    expect((await rejection(resend.execute({ userId: 8 }))).code).toBe('no_challenge_found');
  });

  it('goes only where the code went; a refused resend costs nothing', async () => {
    const { kit, resend, sent } = await setup();
    const { secret } = await sent();
    const elsewhere = await rejection(
      resend.execute({ userId: 7, secret, phoneNumber: '+14155550999' }),
    );
    expect(elsewhere.code).toBe('phone_number_mismatch');
    const otherMethod = await rejection(resend.execute({ userId: 7, secret, tfaMethodId: 999 }));
    expect(otherMethod.code).toBe('phone_number_mismatch');
    const email = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(email.challenge, 'email', 'user7@example.test', null);
    const noSms = await rejection(resend.execute({ userId: 7, secret: email.secret }));
    expect(noSms.code).toBe('no_challenge_found');
    expect(kit.smsPolicy.admitted).toEqual([]);
  });

  it('stops at 5 sends per challenge (sms_rate_limited) before the budgets are asked', async () => {
    const { kit, resend, sent } = await setup();
    const { secret } = await sent();
    for (let i = 0; i < 4; i += 1) await resend.execute({ userId: 7, secret });
    expect((await rejection(resend.execute({ userId: 7, secret }))).code).toBe('sms_rate_limited');
    expect(kit.smsPolicy.admitted).toHaveLength(4);
  });

  it('needs a verified email, except for admins', async () => {
    const { kit, resend, sent } = await setup();
    const { secret } = await sent();
    kit.addUser(7, { emailVerifiedAt: null });
    expect((await rejection(resend.execute({ userId: 7, secret }))).code).toBe(
      'email_not_verified',
    );
    kit.addUser(7, { emailVerifiedAt: null, isAdmin: true });
    await expect(resend.execute({ userId: 7, secret })).resolves.toEqual({ secret });
  });
});
