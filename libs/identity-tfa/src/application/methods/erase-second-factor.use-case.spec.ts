import { tfaTestKit } from '../../testing/tfa-test-kit';
import { EraseSecondFactorUseCase } from './erase-second-factor.use-case';

describe('EraseSecondFactorUseCase', () => {
  it('removes every method and revokes the unused backup codes, of that user only, and says how many', async () => {
    const kit = tfaTestKit();
    const erase = new EraseSecondFactorUseCase(kit.methods, kit.backupCodes);
    kit.addUser(7);
    kit.addUser(8);
    await kit.addTotpMethod(7);
    await kit.addSmsMethod(7, '+14155550123', false);
    await kit.backupCodeIssuer.issue(7);
    await kit.addTotpMethod(8);
    expect(await erase.eraseAll(7, kit.clock.now())).toEqual({
      methodsRemoved: 2,
      backupCodesRevoked: 10,
    });
    expect(await kit.methods.listByUser(7)).toEqual([]);
    expect(await kit.backupCodes.countUnused(7)).toBe(0);
    expect(await kit.methods.listByUser(8)).toHaveLength(1);
    expect(await erase.eraseAll(7, kit.clock.now())).toEqual({
      methodsRemoved: 0,
      backupCodesRevoked: 0,
    });
  });
});
