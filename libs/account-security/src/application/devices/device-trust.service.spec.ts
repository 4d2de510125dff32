import { DEVICE_TOKEN_PURPOSE, isDeviceTokenShape } from '../../domain/trusted-device';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';

const DAY_MS = 24 * 3600 * 1000;

describe('DeviceTrust', () => {
  it('trusts a device for the configured days: a 256-bit token, stored only as its fingerprint', async () => {
    const kit = accountSecurityKit();
    kit.settings.trustedDeviceDays = 7;
    const { device, token } = await kit.deviceTrust.trust(7, ORIGIN);
    expect(isDeviceTokenShape(token)).toBe(true);
    expect(device).toMatchObject({
      userId: 7,
      createdAt: kit.clock.now(),
      expiresAt: new Date(kit.clock.nowMs() + 7 * DAY_MS),
      userAgent: ORIGIN.userAgent,
      clientAddress: ORIGIN.address,
    });
    expect(JSON.stringify(kit.devices.rows)).not.toContain(token);
    expect(kit.devices.rows[0].tokenFingerprint).toBe(
      kit.secrets.fingerprint(DEVICE_TOKEN_PURPOSE, token),
    );
    expect(await kit.deviceTrust.find(7, token)).toEqual(device);
    expect(await kit.deviceTrust.find(8, token)).toBeNull();
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        kind: 'device_trusted',
        details: { device_id: device.id, days: 7 },
      }),
    ]);
    expect(kit.noticeQueue.jobs).toHaveLength(1);
    kit.clock.advance(7 * DAY_MS);
    expect(await kit.deviceTrust.find(7, token)).toBeNull();
  });

  it('keeps at most 20 active devices: the 21st revokes the oldest', async () => {
    const kit = accountSecurityKit();
    const tokens: string[] = [];
    for (let i = 0; i < 21; i += 1) tokens.push((await kit.deviceTrust.trust(7, ORIGIN)).token);
    expect(await kit.devices.listActive(7, kit.clock.now())).toHaveLength(20);
    expect(await kit.deviceTrust.find(7, tokens[0])).toBeNull();
    expect(await kit.deviceTrust.find(7, tokens[1])).not.toBeNull();
    expect(kit.events.rows.at(-1)).toMatchObject({
      kind: 'device_revoked',
      details: { devices: 1, cause: 'limit' },
    });
  });

  it('revokes them all, recording how many and why (nothing when there were none)', async () => {
    const kit = accountSecurityKit();
    expect(await kit.deviceTrust.revokeAll(7, 'tfa_change', ORIGIN)).toBe(0);
    expect(kit.events.rows).toEqual([]);
    const { token } = await kit.deviceTrust.trust(7, ORIGIN);
    await kit.deviceTrust.trust(7, ORIGIN);
    expect(await kit.deviceTrust.revokeAll(7, 'tfa_change', ORIGIN)).toBe(2);
    expect(await kit.deviceTrust.find(7, token)).toBeNull();
    expect(kit.events.rows.at(-1)).toMatchObject({
      kind: 'device_revoked',
      details: { devices: 2, cause: 'tfa_change' },
    });
  });
});
