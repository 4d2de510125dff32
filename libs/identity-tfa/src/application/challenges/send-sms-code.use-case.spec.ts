import { TfaError } from '../../domain/errors';
import { rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { SendSmsCodeUseCase } from './send-sms-code.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const send = new SendSmsCodeUseCase(
    kit.lookup,
    kit.methods,
    kit.challenges,
    kit.store,
    kit.smsBudget,
  );
  kit.addUser(7);
  const phone = await kit.addSmsMethod(7, PHONE);
  return { kit, send, phone };
}

describe('SendSmsCodeUseCase', () => {
  it('with a Bearer token, a new verify challenge and one SMS to the primary SMS method', async () => {
    const { kit, send, phone } = await setup();
    const { secret } = await send.execute({ userId: 7 });
    expect(await kit.challenges.load(secret)).toMatchObject({
      userId: 7,
      purpose: 'verify',
      channel: 'sms',
      destination: PHONE,
      methodId: phone.id,
      sends: 1,
    });
    expect(kit.queue.jobs).toHaveLength(1);
    expect(kit.smsPolicy.admitted).toEqual([
      { userId: 7, destination: PHONE, resend: false, smsFraudFlagged: false },
    ]);
  });

  it('logged out, sends on the login challenge and answers its secret', async () => {
    const { kit, send } = await setup();
    const login = await kit.challenges.open(7, 'login');
    expect(await send.execute({ secret: login.secret })).toEqual({ secret: login.secret });
    expect((await kit.challenges.load(login.secret)).sends).toBe(1);
  });

  it('a second SMS within the recent window is refused (use resend), without being charged', async () => {
    const { kit, send } = await setup();
    await send.execute({ userId: 7 });
    expect((await rejection(send.execute({ userId: 7 }))).code).toBe('tfa_challenge_exists');
    expect(kit.smsPolicy.admitted).toHaveLength(1);
  });

  it('a challenge that already had its code is refused: resend it', async () => {
    const { kit, send } = await setup();
    const login = await kit.challenges.open(7, 'login');
    await kit.challenges.sendCode(login.challenge, 'sms', PHONE, null);
    expect((await rejection(send.execute({ secret: login.secret }))).code).toBe(
      'tfa_challenge_exists',
    );
    expect(kit.smsPolicy.admitted).toEqual([]);
  });

  it('logged out, only numbers on file; unverified email only for admins', async () => {
    const { kit, send } = await setup();
    const login = await kit.challenges.open(7, 'login');
    const elsewhere = await rejection(
      send.execute({ secret: login.secret, phoneNumber: '+14155550999' }),
    );
    expect(elsewhere.code).toBe('phone_number_mismatch');
    kit.addUser(8, { emailVerifiedAt: null, phoneNumber: PHONE });
    expect((await rejection(send.execute({ userId: 8 }))).code).toBe('email_not_verified');
    kit.addUser(9, { emailVerifiedAt: null, isAdmin: true, phoneNumber: PHONE });
    await expect(send.execute({ userId: 9 })).resolves.toMatchObject({
      secret: expect.any(String),
    });
    expect(kit.smsPolicy.admitted.map((r) => r.userId)).toEqual([9]);
  });

  it('a send the policy refuses costs nothing and frees the recent-SMS marker', async () => {
    const { kit, send } = await setup();
    kit.smsPolicy.refuseWith = new TfaError('sms_rate_limited', 'Too many SMS.');
    expect((await rejection(send.execute({ userId: 7 }))).code).toBe('sms_rate_limited');
    kit.smsPolicy.refuseWith = null;
    await send.execute({ userId: 7 });
    expect(kit.smsPolicy.charged).toBe(1);
  });

  it("the provider's refusal reaches the caller; the send was made, so it stays charged", async () => {
    const { kit, send } = await setup();
    kit.queue.nextReport = { state: 'failed', code: 'twilio_error' };
    expect((await rejection(send.execute({ userId: 7 }))).code).toBe('twilio_error');
    expect(kit.smsPolicy.charged).toBe(1);
    kit.queue.nextReport = { state: 'sent' };
    expect((await rejection(send.execute({ userId: 7 }))).code).toBe('tfa_challenge_exists');
  });

  it('a challenge gone before its code was attached gives the budget back', async () => {
    const { kit, send } = await setup();
    const login = await kit.challenges.open(7, 'login');
    // The challenge expires between the checks and the attaching of its code.
    const attach = kit.store.attachCode.bind(kit.store);
    kit.store.attachCode = async (key, code) => {
      kit.store.drop(key);
      return attach(key, code);
    };
    expect((await rejection(send.execute({ secret: login.secret }))).code).toBe(
      'no_challenge_found',
    );
    expect(kit.smsPolicy.admitted).toHaveLength(1);
    expect(kit.smsPolicy.charged).toBe(0);
    // Nor does it hold back the next SMS.
    expect(await kit.store.reserveRecentSms(7, 'next', 60_000)).toBe(true);
  });
});
