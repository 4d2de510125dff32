import { ORIGIN, otherThan, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { ConfirmMethodAuthorizationUseCase } from './confirm-method-authorization.use-case';

async function setup() {
  const kit = tfaTestKit();
  const confirm = new ConfirmMethodAuthorizationUseCase(
    kit.lookup,
    kit.challenges,
    kit.verifier,
    kit.gate,
  );
  const user = kit.addUser(7);
  /** What POST authorize-new-method leaves for a user without methods: an emailed code. */
  const emailed = async () => {
    const { secret, challenge } = await kit.challenges.open(7, 'authorize');
    await kit.challenges.sendCode(challenge, 'email', user.email, null);
    return { secret, challenge, code: await kit.lastCode() };
  };
  return { kit, confirm, emailed };
}

describe('ConfirmMethodAuthorizationUseCase', () => {
  it('names what is missing before anything is looked up', async () => {
    const { confirm } = await setup();
    expect((await rejection(confirm.execute({ origin: ORIGIN, userId: 7 }))).code).toBe(
      'missing_params',
    );
    expect(
      (await rejection(confirm.execute({ origin: ORIGIN, userId: 7, secret: 's' }))).code,
    ).toBe('missing_code');
    expect(
      (await rejection(confirm.execute({ origin: ORIGIN, userId: 7, code: '123456' }))).code,
    ).toBe('missing_params');
  });

  it('the emailed code grants the 30-minute window, once', async () => {
    const { kit, confirm, emailed } = await setup();
    const { secret, challenge, code } = await emailed();
    await confirm.execute({ origin: ORIGIN, userId: 7, code, secret });
    expect(await kit.gate.isGranted(7)).toBe(true);
    expect(kit.ledger.spent.has(challenge.id)).toBe(true);
    const again = await rejection(confirm.execute({ origin: ORIGIN, userId: 7, code, secret }));
    expect(again.code).toBe('no_pending_authorization');
  });

  it('a wrong code is counted and grants nothing', async () => {
    const { kit, confirm, emailed } = await setup();
    const { secret, code } = await emailed();
    const error = await rejection(
      confirm.execute({ origin: ORIGIN, userId: 7, code: otherThan(code), secret }),
    );
    expect(error.code).toBe('2fa_verification_failed');
    expect(error.details).toEqual({ fail_count: 1, locked_until: null });
    expect(await kit.gate.isGranted(7)).toBe(false);
  });

  it('only an authorize challenge of the caller is a pending authorization', async () => {
    const { kit, confirm } = await setup();
    const verify = await kit.challenges.open(7, 'verify');
    expect(
      (
        await rejection(
          confirm.execute({ origin: ORIGIN, userId: 7, code: '123456', secret: verify.secret }),
        )
      ).code,
    ).toBe('no_pending_authorization');
    kit.addUser(8);
    const foreign = await kit.challenges.open(8, 'authorize');
    expect(
      (
        await rejection(
          confirm.execute({ origin: ORIGIN, userId: 7, code: '123456', secret: foreign.secret }),
        )
      ).code,
    ).toBe('no_pending_authorization');
    expect(
      (
        await rejection(
          confirm.execute({ origin: ORIGIN, userId: 7, code: '123456', secret: 'never-issued' }),
        )
      ).code,
    ).toBe('no_pending_authorization');
  });

  it('an authorization older than 10 minutes says it expired', async () => {
    const { kit, confirm, emailed } = await setup();
    const { secret, code } = await emailed();
    kit.clock.advance(10 * 60_000);
    expect(
      (await rejection(confirm.execute({ origin: ORIGIN, userId: 7, code, secret }))).code,
    ).toBe('2fa_expired');
  });

  it('an authenticator-app authorization takes the app code and is used up with it', async () => {
    const { kit, confirm } = await setup();
    const { method, codeAt } = await kit.addTotpMethod(7);
    const { secret, challenge } = await kit.challenges.open(7, 'authorize', {
      channel: 'totp',
      methodId: method.id,
    });
    await confirm.execute({ origin: ORIGIN, userId: 7, code: codeAt(0), secret });
    expect(await kit.gate.isGranted(7)).toBe(true);
    expect(kit.ledger.spent.has(challenge.id)).toBe(true);
    kit.clock.advance(30_000);
    expect(
      (await rejection(confirm.execute({ origin: ORIGIN, userId: 7, code: codeAt(0), secret })))
        .code,
    ).toBe('no_pending_authorization');
  });

  it('a grant the store refuses fails closed and leaves the code usable', async () => {
    const { kit, confirm, emailed } = await setup();
    const { secret, code } = await emailed();
    kit.authorizations.failing = true;
    expect(
      (await rejection(confirm.execute({ origin: ORIGIN, userId: 7, code, secret }))).code,
    ).toBe('service_unavailable');
    kit.authorizations.failing = false;
    await confirm.execute({ origin: ORIGIN, userId: 7, code, secret });
    expect(await kit.gate.isGranted(7)).toBe(true);
  });
});
