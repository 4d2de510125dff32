import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { ListTrustedDevicesUseCase } from './list-trusted-devices.use-case';

describe('ListTrustedDevicesUseCase', () => {
  it("lists the caller's active devices newest first, never another user's", async () => {
    const kit = accountSecurityKit();
    const list = new ListTrustedDevicesUseCase(kit.lookup, kit.devices, kit.clock);
    kit.addUser(7);
    const first = await kit.deviceTrust.trust(7, ORIGIN);
    const second = await kit.deviceTrust.trust(7, ORIGIN);
    const revoked = await kit.deviceTrust.trust(7, ORIGIN);
    await kit.devices.revoke(7, revoked.device.id, kit.clock.now());
    await kit.deviceTrust.trust(8, ORIGIN);
    expect((await list.execute(7)).map((device) => device.id)).toEqual([
      second.device.id,
      first.device.id,
    ]);
  });
});
