import { rejection } from '@app/platform/testing';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { RevokeTrustedDeviceUseCase } from './revoke-trusted-device.use-case';

async function setup() {
  const kit = accountSecurityKit();
  const revoke = new RevokeTrustedDeviceUseCase(
    kit.lookup,
    kit.devices,
    kit.deviceTrust,
    kit.uow,
    kit.clock,
  );
  kit.addUser(7);
  kit.addUser(8);
  const mine = await kit.deviceTrust.trust(7, ORIGIN);
  const theirs = await kit.deviceTrust.trust(8, ORIGIN);
  kit.events.rows = [];
  return { kit, revoke, mine, theirs };
}

describe('RevokeTrustedDeviceUseCase', () => {
  it('revokes one of the caller’s devices and records device_revoked', async () => {
    const { kit, revoke, mine } = await setup();
    await revoke.execute({ userId: 7, deviceId: mine.device.id, origin: ORIGIN });
    expect(await kit.deviceTrust.find(7, mine.token)).toBeNull();
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        userId: 7,
        kind: 'device_revoked',
        details: { devices: 1, cause: 'user', device_id: mine.device.id },
      }),
    ]);
  });

  it("another user's, an unknown and an already revoked id read the same not_found", async () => {
    const { kit, revoke, mine, theirs } = await setup();
    await revoke.execute({ userId: 7, deviceId: mine.device.id, origin: ORIGIN });
    const messages = [];
    for (const deviceId of [theirs.device.id, 999, mine.device.id]) {
      const error = await rejection(revoke.execute({ userId: 7, deviceId, origin: ORIGIN }));
      expect(error.code).toBe('not_found');
      messages.push(error.message.replace(String(deviceId), 'N'));
    }
    expect(new Set(messages)).toEqual(new Set(['No trusted device N.']));
    expect(await kit.deviceTrust.find(8, theirs.token)).not.toBeNull();
    expect(kit.events.rows).toHaveLength(1);
  });
});
