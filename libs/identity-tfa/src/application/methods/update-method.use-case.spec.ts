import { emptyLedger, recordFailure } from '../../domain/verification-failures';
import { ORIGIN, rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { UpdateMethodUseCase } from './update-method.use-case';

async function setup() {
  const kit = tfaTestKit();
  const update = new UpdateMethodUseCase(
    kit.lookup,
    kit.methods,
    kit.verifier,
    kit.uow,
    kit.records,
    kit.eventLog,
  );
  kit.addUser(7);
  const { method: app } = await kit.addTotpMethod(7);
  const phone = await kit.addSmsMethod(7, '+14155550123', false);
  return { kit, update, app, phone };
}

describe('UpdateMethodUseCase', () => {
  it('refuses email, a request naming no method and a request changing nothing', async () => {
    const { update } = await setup();
    expect(
      (
        await rejection(
          update.execute({ origin: ORIGIN, userId: 7, tfaMethod: 'email', label: 'x' }),
        )
      ).code,
    ).toBe('invalid_tfa_method');
    expect((await rejection(update.execute({ origin: ORIGIN, userId: 7, label: 'x' }))).code).toBe(
      'bad_request',
    );
    expect(
      (await rejection(update.execute({ origin: ORIGIN, userId: 7, tfaMethod: 'sms' }))).code,
    ).toBe('bad_request');
  });

  it("a method that is not the caller's, or a type without a method, is not found", async () => {
    const { kit, update, app } = await setup();
    kit.addUser(8);
    expect(
      (
        await rejection(
          update.execute({ origin: ORIGIN, userId: 8, tfaMethodId: app.id, label: 'x' }),
        )
      ).code,
    ).toBe('not_found');
    expect(
      (
        await rejection(
          update.execute({ origin: ORIGIN, userId: 8, tfaMethod: 'totp', label: 'x' }),
        )
      ).code,
    ).toBe('not_found');
    expect((await kit.methods.findById(app.id))!.label).toBe('app');
  });

  it('changes the label and answers the method record with its failures', async () => {
    const { kit, update, phone } = await setup();
    await kit.ledger.save(7, recordFailure(emptyLedger(), 'sms', kit.clock.nowMs()).ledger);
    const updated = await update.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethod: 'sms',
      label: 'work',
    });
    expect(updated).toMatchObject({
      kind: 'method',
      id: phone.id,
      label: 'work',
      isPrimary: false,
      failCount: 1,
    });
    expect((await kit.methods.findById(phone.id))!.label).toBe('work');
  });

  it('is_primary makes the method the only primary one', async () => {
    const { kit, update, app, phone } = await setup();
    await update.execute({ origin: ORIGIN, userId: 7, tfaMethodId: phone.id, isPrimary: true });
    const methods = await kit.methods.listByUser(7);
    expect(methods.map((m) => [m.id, m.isPrimary])).toEqual([
      [app.id, false],
      [phone.id, true],
    ]);
  });
});

describe('UpdateMethodUseCase: events', () => {
  it('records method_updated naming the fields that changed, never their values', async () => {
    const { kit, update, phone } = await setup();
    await update.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethodId: phone.id,
      label: 'secret-looking label',
      isPrimary: true,
    });
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        kind: 'method_updated',
        method: 'sms',
        details: { method_id: phone.id, changed: ['label', 'is_primary'] },
        origin: ORIGIN,
      }),
    ]);
    expect(JSON.stringify(kit.events.rows)).not.toContain('secret-looking');
    expect(kit.noticeQueue.jobs).toEqual([]);
  });

  it('a request that changes nothing records nothing', async () => {
    const { kit, update, app } = await setup();
    await update.execute({
      origin: ORIGIN,
      userId: 7,
      tfaMethodId: app.id,
      label: 'app',
      isPrimary: true,
    });
    expect(kit.events.rows).toEqual([]);
  });
});
