import { OPERATOR_ORIGIN } from '@app/platform';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { RevokeTrustedDevicesUseCase } from './revoke-trusted-devices.use-case';

describe('RevokeTrustedDevicesUseCase', () => {
  it("revokes every active device of the user under the user's lock, as the operator", async () => {
    const kit = accountSecurityKit();
    kit.addUser(7);
    kit.addUser(8);
    await kit.deviceTrust.trust(7, ORIGIN);
    await kit.deviceTrust.trust(7, ORIGIN);
    await kit.deviceTrust.trust(8, ORIGIN);
    kit.events.rows = [];
    const revoke = new RevokeTrustedDevicesUseCase(kit.deviceTrust, kit.lock, kit.uow);
    expect(await revoke.revokeAll(7, 'operator', OPERATOR_ORIGIN)).toBe(2);
    expect(kit.lock.locked).toEqual([7]);
    expect(await kit.devices.listActive(7, kit.clock.now())).toEqual([]);
    expect(await kit.devices.listActive(8, kit.clock.now())).toHaveLength(1);
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        userId: 7,
        kind: 'device_revoked',
        details: { devices: 2, cause: 'operator' },
        origin: OPERATOR_ORIGIN,
      }),
    ]);
    expect(await revoke.revokeAll(7, 'operator', OPERATOR_ORIGIN)).toBe(0);
    expect(kit.events.rows).toHaveLength(1);
  });
});
