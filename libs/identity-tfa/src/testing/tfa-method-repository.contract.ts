import { NewTfaMethod, TfaMethodRepository } from '../application/ports/tfa-method.repository.port';

export interface TfaMethodRepositoryHarness {
  methods: TfaMethodRepository;
  /** A user the methods can belong to (a row the adapter's foreign key accepts). */
  newUserId(): Promise<number>;
}

/**
 * What every TfaMethodRepository does, run against the in-memory fake (unit) and the
 * PostgreSQL adapter (integration).
 */
export function tfaMethodRepositoryContract(
  name: string,
  harness: () => TfaMethodRepositoryHarness,
): void {
  describe(`${name} (TfaMethodRepository contract)`, () => {
    let methods: TfaMethodRepository;
    let newUserId: () => Promise<number>;
    beforeEach(() => {
      ({ methods, newUserId } = harness());
    });

    const totp = (userId: number, overrides: Partial<NewTfaMethod> = {}): NewTfaMethod => ({
      userId,
      type: 'totp',
      label: 'app',
      phoneNumber: null,
      isPrimary: true,
      lastTotpStep: null,
      ...overrides,
    });
    const sms = (userId: number, overrides: Partial<NewTfaMethod> = {}): NewTfaMethod => ({
      userId,
      type: 'sms',
      label: 'phone',
      phoneNumber: '+14155550123',
      isPrimary: false,
      lastTotpStep: null,
      ...overrides,
    });

    it('creates a method as given and finds it by id and by user, in id order', async () => {
      const userId = await newUserId();
      const created = (await methods.create(totp(userId, { lastTotpStep: 42 })))!;
      expect(created).toEqual({
        id: expect.any(Number),
        userId,
        type: 'totp',
        label: 'app',
        phoneNumber: null,
        totpSecretCiphertext: null,
        isPrimary: true,
        lastTotpStep: 42,
        createdAt: expect.any(Date),
        lastUsedAt: null,
      });
      const second = (await methods.create(sms(userId)))!;
      expect(await methods.findById(created.id)).toEqual(created);
      expect(await methods.listByUser(userId)).toEqual([created, second]);
      expect(await methods.listByUser(await newUserId())).toEqual([]);
    });

    it('keeps one method per type and user, also under parallel inserts', async () => {
      const userId = await newUserId();
      const created = await Promise.all(
        Array.from({ length: 5 }, () => methods.create(totp(userId))),
      );
      expect(created.filter((row) => row !== null)).toHaveLength(1);
      expect(await methods.create(totp(userId, { label: 'again' }))).toBeNull();
      expect(await methods.listByUser(userId)).toHaveLength(1);
    });

    it('finds nothing for an id that is unknown or out of range', async () => {
      expect(await methods.findById(2_000_000_000)).toBeNull();
      expect(await methods.findById(2 ** 40)).toBeNull();
      expect(await methods.findById(0)).toBeNull();
    });

    it('stores the TOTP secret, the label, the primary flag and the last use', async () => {
      const userId = await newUserId();
      const app = (await methods.create(totp(userId)))!;
      const phone = (await methods.create(sms(userId)))!;
      await methods.setTotpSecret(app.id, 'v1.ciphertext');
      expect((await methods.findById(app.id))!.totpSecretCiphertext).toBe('v1.ciphertext');
      expect(await methods.update(phone.id, { label: 'work' })).toMatchObject({
        label: 'work',
        isPrimary: false,
      });
      expect(await methods.update(phone.id, { isPrimary: true })).toMatchObject({
        label: 'work',
        isPrimary: true,
      });
      await methods.makeOnlyPrimary(userId, app.id);
      const listed = await methods.listByUser(userId);
      expect(listed.map((m) => [m.id, m.isPrimary])).toEqual([
        [app.id, true],
        [phone.id, false],
      ]);
      const usedAt = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
      await methods.recordUse(phone.id, usedAt);
      expect((await methods.findById(phone.id))!.lastUsedAt).toEqual(usedAt);
    });

    it('deletes a method', async () => {
      const userId = await newUserId();
      const app = (await methods.create(totp(userId)))!;
      await methods.delete(app.id);
      expect(await methods.findById(app.id)).toBeNull();
      expect(await methods.create(totp(userId))).not.toBeNull();
    });

    it('advances the TOTP step only forwards (compare-and-set, one winner), with its use', async () => {
      const app = (await methods.create(totp(await newUserId())))!;
      const usedAt = (second: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, second));
      const results = await Promise.all(
        Array.from({ length: 5 }, () => methods.advanceTotpStep(app.id, 100, usedAt(1))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await methods.advanceTotpStep(app.id, 100, usedAt(2))).toBe(false);
      expect(await methods.advanceTotpStep(app.id, 99, usedAt(3))).toBe(false);
      // A refused step records no use.
      expect((await methods.findById(app.id))!.lastUsedAt).toEqual(usedAt(1));
      expect(await methods.advanceTotpStep(app.id, 101, usedAt(4))).toBe(true);
      expect((await methods.findById(app.id))!.lastTotpStep).toBe(101);
      expect((await methods.findById(app.id))!.lastUsedAt).toEqual(usedAt(4));
    });
  });
}
