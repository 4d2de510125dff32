import { emptyLedger, recordFailure } from '../../domain/verification-failures';
import { rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { GetTfaStatusUseCase } from './get-tfa-status.use-case';

const MINUTE = 60_000;

async function setup() {
  const kit = tfaTestKit();
  const status = new GetTfaStatusUseCase(
    kit.lookup,
    kit.methods,
    kit.backupCodes,
    kit.gate,
    kit.records,
  );
  return { kit, status };
}

describe('GetTfaStatusUseCase', () => {
  it('an account without 2FA: nothing configured, no window', async () => {
    const { kit, status } = await setup();
    kit.users.add({ id: 7 });
    expect(await status.execute(7)).toEqual({
      tfaEnabled: false,
      tfaStatus: 'disabled',
      methods: [],
      backupCodesRemaining: 0,
      newMethodAuthorized: false,
    });
  });

  it("each method with its channel's failures and lock, the codes left and the window", async () => {
    const { kit, status } = await setup();
    kit.addUser(7);
    const { method: app } = await kit.addTotpMethod(7);
    const phone = await kit.addSmsMethod(7, '+14155550123', false);
    const codes = await kit.backupCodeIssuer.issue(7);
    let ledger = emptyLedger();
    for (let i = 0; i < 5; i += 1) ledger = recordFailure(ledger, 'totp', kit.clock.nowMs()).ledger;
    ledger = recordFailure(ledger, 'sms', kit.clock.nowMs()).ledger;
    await kit.ledger.save(7, ledger);
    await kit.gate.grant(7);
    const lockEnd = Math.ceil((kit.clock.nowMs() + 15 * MINUTE) / 1000);
    kit.clock.advance(MINUTE);

    const result = await status.execute(7);
    expect(result).toMatchObject({
      tfaEnabled: true,
      tfaStatus: 'enabled',
      backupCodesRemaining: codes.length,
      newMethodAuthorized: true,
    });
    expect(result.methods).toEqual([
      expect.objectContaining({
        id: app.id,
        type: 'totp',
        failCount: 5,
        lockedUntilSeconds: lockEnd,
      }),
      expect.objectContaining({
        id: phone.id,
        type: 'sms',
        maskedPhoneNumber: '********0123',
        failCount: 1,
        lockedUntilSeconds: null,
      }),
    ]);
  });

  it('an unknown user is an invalid key', async () => {
    const { status } = await setup();
    expect((await rejection(status.execute(404))).code).toBe('auth_invalid_key');
  });
});
