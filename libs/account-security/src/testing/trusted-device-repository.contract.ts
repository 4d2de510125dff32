import {
  NewTrustedDevice,
  TrustedDeviceRepository,
} from '../application/ports/trusted-device.repository.port';

export interface TrustedDeviceRepositoryHarness {
  devices: TrustedDeviceRepository;
  newUserId(): Promise<number>;
}

const DAY_MS = 24 * 3600 * 1000;

/** What every TrustedDeviceRepository does, on the fake (unit) and PostgreSQL (integration). */
export function trustedDeviceRepositoryContract(
  name: string,
  harness: () => TrustedDeviceRepositoryHarness,
): void {
  describe(`${name} (TrustedDeviceRepository contract)`, () => {
    let devices: TrustedDeviceRepository;
    let newUserId: () => Promise<number>;
    beforeEach(() => {
      ({ devices, newUserId } = harness());
    });

    const now = new Date(Date.UTC(2026, 0, 1, 12));
    const later = (days: number) => new Date(now.getTime() + days * DAY_MS);
    let serial = 0;
    const device = (
      userId: number,
      overrides: Partial<NewTrustedDevice> = {},
    ): NewTrustedDevice => ({
      userId,
      tokenFingerprint: `fp-${Date.now()}-${Math.random()}-${(serial += 1)}`,
      createdAt: now,
      expiresAt: later(30),
      userAgent: 'contract/1.0',
      clientAddress: '203.0.113.7',
      ...overrides,
    });

    it('finds an active device by any of its fingerprints, only for its own user', async () => {
      const owner = await newUserId();
      const other = await newUserId();
      const spec = device(owner);
      const created = await devices.create(spec);
      expect(created).toEqual({
        id: expect.any(Number),
        userId: owner,
        createdAt: now,
        lastUsedAt: null,
        expiresAt: later(30),
        userAgent: 'contract/1.0',
        clientAddress: '203.0.113.7',
        revokedAt: null,
      });
      expect(await devices.findActive(owner, ['nothing', spec.tokenFingerprint], now)).toEqual(
        created,
      );
      expect(await devices.findActive(other, [spec.tokenFingerprint], now)).toBeNull();
      expect(await devices.findActive(owner, ['nothing'], now)).toBeNull();
      // Expired: gone at its expiry.
      expect(await devices.findActive(owner, [spec.tokenFingerprint], later(30))).toBeNull();
      await devices.recordUse(created.id, later(1));
      expect((await devices.listActive(owner, now))[0].lastUsedAt).toEqual(later(1));
    });

    it('revokes one device of its user only; a revoked device is neither found nor revoked again', async () => {
      const owner = await newUserId();
      const other = await newUserId();
      const spec = device(owner);
      const created = await devices.create(spec);
      expect(await devices.revoke(other, created.id, now)).toBe(false);
      expect(await devices.revoke(owner, created.id, now)).toBe(true);
      expect(await devices.revoke(owner, created.id, now)).toBe(false);
      expect(await devices.findActive(owner, [spec.tokenFingerprint], now)).toBeNull();
      expect(await devices.listActive(owner, now)).toEqual([]);
    });

    it('lists active devices newest first; revokes all, or all beyond the newest few', async () => {
      const owner = await newUserId();
      const ids: number[] = [];
      for (let i = 0; i < 4; i += 1) ids.push((await devices.create(device(owner))).id);
      const expired = await devices.create(device(owner, { expiresAt: later(-1) }));
      expect((await devices.listActive(owner, now)).map((d) => d.id)).toEqual([...ids].reverse());
      expect(await devices.revokeBeyond(owner, 2, now)).toBe(2);
      expect((await devices.listActive(owner, now)).map((d) => d.id)).toEqual([ids[3], ids[2]]);
      expect(await devices.revoke(owner, expired.id, now)).toBe(false);
      expect(await devices.revokeAll(owner, now)).toBe(2);
      expect(await devices.revokeAll(owner, now)).toBe(0);
      expect(await devices.listActive(owner, now)).toEqual([]);
    });
  });
}
