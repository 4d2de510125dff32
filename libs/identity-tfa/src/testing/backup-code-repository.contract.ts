import { BackupCodeRepository } from '../application/ports/backup-code.repository.port';

export interface BackupCodeRepositoryHarness {
  backupCodes: BackupCodeRepository;
  /** A user the codes can belong to (a row the adapter's foreign key accepts). */
  newUserId(): Promise<number>;
}

/**
 * What every BackupCodeRepository does, run against the in-memory fake (unit) and the
 * PostgreSQL adapter (integration).
 */
export function backupCodeRepositoryContract(
  name: string,
  harness: () => BackupCodeRepositoryHarness,
): void {
  describe(`${name} (BackupCodeRepository contract)`, () => {
    let backupCodes: BackupCodeRepository;
    let newUserId: () => Promise<number>;
    beforeEach(() => {
      ({ backupCodes, newUserId } = harness());
    });

    it('consumes a code exactly once, also among parallel callers, and remembers it as used', async () => {
      const userId = await newUserId();
      await backupCodes.replaceSet(userId, ['d1', 'd2']);
      expect(await backupCodes.countUnused(userId)).toBe(2);
      expect(await backupCodes.wasUsed(userId, 'd1')).toBe(false);
      const results = await Promise.all(
        Array.from({ length: 5 }, () => backupCodes.consume(userId, 'd1', new Date())),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await backupCodes.wasUsed(userId, 'd1')).toBe(true);
      expect(await backupCodes.countUnused(userId)).toBe(1);
    });

    it("binds codes to their user: another user's digest is neither consumed nor used", async () => {
      const owner = await newUserId();
      const other = await newUserId();
      await backupCodes.replaceSet(owner, ['d1']);
      expect(await backupCodes.consume(other, 'd1', new Date())).toBe(false);
      expect(await backupCodes.countUnused(other)).toBe(0);
      await backupCodes.consume(owner, 'd1', new Date());
      expect(await backupCodes.wasUsed(other, 'd1')).toBe(false);
    });

    it('a new set replaces the old one; soft deletion ends every code', async () => {
      const userId = await newUserId();
      await backupCodes.replaceSet(userId, ['d1', 'd2']);
      await backupCodes.consume(userId, 'd1', new Date());
      await backupCodes.replaceSet(userId, ['d3']);
      expect(await backupCodes.consume(userId, 'd2', new Date())).toBe(false);
      expect(await backupCodes.wasUsed(userId, 'd2')).toBe(false);
      // A code used before the replacement still reads as used (a replay, not a guess).
      expect(await backupCodes.wasUsed(userId, 'd1')).toBe(true);
      expect(await backupCodes.countUnused(userId)).toBe(1);
      await backupCodes.softDeleteAll(userId, new Date());
      expect(await backupCodes.countUnused(userId)).toBe(0);
      expect(await backupCodes.consume(userId, 'd3', new Date())).toBe(false);
    });
  });
}
