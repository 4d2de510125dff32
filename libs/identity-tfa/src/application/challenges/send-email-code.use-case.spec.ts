import { TfaError } from '../../domain/errors';
import { rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { SendEmailCodeUseCase } from './send-email-code.use-case';

async function setup() {
  const kit = tfaTestKit();
  const send = new SendEmailCodeUseCase(kit.lookup, kit.challenges, kit.emailBudget);
  return { kit, send };
}

describe('SendEmailCodeUseCase', () => {
  it('with a Bearer token and no secret, a fresh verify challenge that supersedes the last', async () => {
    const { kit, send } = await setup();
    kit.addUser(7, { email: 'ada@example.com' });
    const first = await send.execute({ userId: 7 });
    expect(await kit.challenges.load(first.secret)).toMatchObject({
      userId: 7,
      purpose: 'verify',
      channel: 'email',
      destination: 'ada@example.com',
      sends: 1,
    });
    const second = await send.execute({ userId: 7 });
    expect(second.secret).not.toBe(first.secret);
    expect(kit.queue.jobs).toHaveLength(2);
    // The first one is retired at once: its record is gone, its secret reads as used.
    expect((await rejection(kit.challenges.load(first.secret))).code).toBe('no_challenge_found');
    expect(kit.store.challenges.size).toBe(1);
    expect(await kit.challenges.load(second.secret)).toMatchObject({ sends: 1 });
  });

  it('counts every send against the email budgets before anything is queued', async () => {
    const { kit, send } = await setup();
    kit.addUser(7, { email: 'ada@example.com' });
    const login = await kit.challenges.open(7, 'login');
    await send.execute({ userId: 7 });
    await send.execute({ secret: login.secret });
    expect(kit.emailPolicy.admitted).toEqual([
      { userId: 7, destination: 'ada@example.com' },
      { userId: 7, destination: 'ada@example.com' },
    ]);
    kit.emailPolicy.refuseWith = new TfaError('sms_rate_limited', 'Too many email codes');
    expect((await rejection(send.execute({ userId: 7 }))).code).toBe('sms_rate_limited');
    expect(kit.queue.jobs).toHaveLength(2);
    expect(kit.store.challenges.size).toBe(2);
  });

  it('gives the budget back when the send is refused after the check', async () => {
    const { kit, send } = await setup();
    kit.addUser(7);
    const login = await kit.challenges.open(7, 'login');
    for (let i = 0; i < 5; i++) await send.execute({ secret: login.secret });
    // A sixth send on one challenge is over the challenge's own limit: nothing queued.
    expect((await rejection(send.execute({ secret: login.secret }))).code).toBe('sms_rate_limited');
    expect(kit.emailPolicy.admitted).toHaveLength(6);
    expect(kit.emailPolicy.charged).toBe(5);
  });

  it('logged out, sends on the login challenge and answers its secret', async () => {
    const { kit, send } = await setup();
    kit.addUser(7);
    const login = await kit.challenges.open(7, 'login');
    expect(await send.execute({ secret: login.secret })).toEqual({ secret: login.secret });
    expect(await kit.challenges.load(login.secret)).toMatchObject({
      purpose: 'login',
      channel: 'email',
      destination: 'user7@example.test',
    });
  });

  it('needs an email address, verified (admins too); nothing is sent otherwise', async () => {
    const { kit, send } = await setup();
    kit.addUser(7, { email: '' });
    expect((await rejection(send.execute({ userId: 7 }))).code).toBe('missing_email');
    kit.addUser(8, { emailVerifiedAt: null, isAdmin: true });
    expect((await rejection(send.execute({ userId: 8 }))).code).toBe('email_not_verified');
    expect(kit.queue.jobs).toEqual([]);
  });

  it("a secret must be the caller's own login or verify challenge", async () => {
    const { kit, send } = await setup();
    kit.addUser(7);
    kit.addUser(8);
    const foreign = await kit.challenges.open(8, 'verify');
    expect((await rejection(send.execute({ userId: 7, secret: foreign.secret }))).code).toBe(
      'challenge_not_found',
    );
    const authorize = await kit.challenges.open(7, 'authorize');
    expect((await rejection(send.execute({ secret: authorize.secret }))).code).toBe(
      'challenge_not_found',
    );
    expect((await rejection(send.execute({}))).code).toBe('missing_auth_value');
  });
});
