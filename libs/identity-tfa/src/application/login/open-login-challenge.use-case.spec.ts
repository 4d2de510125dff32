import { tfaTestKit } from '../../testing/tfa-test-kit';
import { OpenLoginChallengeUseCase } from './open-login-challenge.use-case';

const PHONE = '+14155550123';

async function setup() {
  const kit = tfaTestKit();
  const open = new OpenLoginChallengeUseCase(kit.challenges, kit.methods, kit.records);
  return { kit, open };
}

describe('OpenLoginChallengeUseCase', () => {
  it('opens a login challenge of the user, without a code yet', async () => {
    const { kit, open } = await setup();
    const user = kit.addUser(7);
    const { secret } = await open.openLoginChallenge(user);
    expect(await kit.challenges.load(secret)).toMatchObject({
      userId: 7,
      purpose: 'login',
      channel: null,
      sends: 0,
    });
    expect(kit.queue.jobs).toEqual([]);
  });

  it('offers the configured methods as the method record describes them', async () => {
    const { kit, open } = await setup();
    const user = kit.addUser(7);
    const { method: app } = await kit.addTotpMethod(7);
    const phone = await kit.addSmsMethod(7, PHONE, false);
    const { methods } = await open.openLoginChallenge(user);
    expect(methods).toEqual([
      expect.objectContaining({
        kind: 'method',
        id: app.id,
        type: 'totp',
        maskedPhoneNumber: null,
      }),
      expect.objectContaining({
        kind: 'method',
        id: phone.id,
        type: 'sms',
        maskedPhoneNumber: '********0123',
        failCount: 0,
      }),
    ]);
  });

  it('a legacy account without methods is offered SMS to the phone on file', async () => {
    const { kit, open } = await setup();
    const legacy = kit.addUser(7, { tfaStatus: 'legacy', phoneNumber: PHONE });
    expect((await open.openLoginChallenge(legacy)).methods).toEqual([
      { kind: 'legacy', type: 'sms', maskedPhoneNumber: '********0123' },
    ]);
    const withoutPhone = kit.addUser(8, { tfaStatus: 'legacy' });
    expect((await open.openLoginChallenge(withoutPhone)).methods).toEqual([]);
    const enabled = kit.addUser(9, { phoneNumber: PHONE });
    expect((await open.openLoginChallenge(enabled)).methods).toEqual([]);
  });
});
