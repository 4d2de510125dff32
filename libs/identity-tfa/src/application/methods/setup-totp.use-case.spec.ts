import { isValidTotpSecret } from '../../domain/totp';
import { rejection, tfaTestKit } from '../../testing/tfa-test-kit';
import { SetupTotpUseCase } from './setup-totp.use-case';

describe('SetupTotpUseCase', () => {
  it('a fresh 160-bit base32 secret and its otpauth URI; nothing is stored', async () => {
    const kit = tfaTestKit();
    const setup = new SetupTotpUseCase(kit.lookup, kit.random, kit.settings);
    kit.addUser(7, { email: 'ada@example.com' });
    const first = await setup.execute(7);
    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(isValidTotpSecret(first.secret)).toBe(true);
    expect(first.provisioningUri).toBe(
      `otpauth://totp/GPU%20Marketplace:ada%40example.com?secret=${first.secret}` +
        '&issuer=GPU+Marketplace&algorithm=SHA1&digits=6&period=30',
    );
    expect((await setup.execute(7)).secret).not.toBe(first.secret);
    expect(kit.methods.rows.size).toBe(0);
    expect((await rejection(setup.execute(404))).code).toBe('auth_invalid_key');
  });
});
