import { rejection, tfaTestKit } from '../testing/tfa-test-kit';
import { SendEmailCodeUseCase } from './send-email-code.use-case';

async function setup() {
  const kit = tfaTestKit();
  const send = new SendEmailCodeUseCase(kit.lookup, kit.challenges);
  return { kit, send };
}

describe('SendEmailCodeUseCase', () => {
  it('with a Bearer token and no secret, a fresh verify challenge every time', async () => {
    const { kit, send } = await setup();
    kit.addUser(7, { email: 'ada@example.com' });
    const first = await send.execute({ userId: 7 });
    const second = await send.execute({ userId: 7 });
    expect(second.secret).not.toBe(first.secret);
    expect(await kit.challenges.load(first.secret)).toMatchObject({
      userId: 7,
      purpose: 'verify',
      channel: 'email',
      destination: 'ada@example.com',
      sends: 1,
    });
    expect(kit.queue.jobs).toHaveLength(2);
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
