import { randomUUID } from 'node:crypto';
import { UnitOfWork } from '@app/platform';
import { VerificationLedger } from '../application/ports/verification-ledger.port';
import { emptyLedger, recordFailure } from '../domain/verification-failures';

export interface VerificationLedgerHarness {
  ledger: VerificationLedger;
  /** The unit of work the ledger joins (a transaction, or the fakes' snapshot). */
  unitOfWork: UnitOfWork;
  /** A user the entries can belong to (a row the adapter's foreign key accepts). */
  newUserId(): Promise<number>;
}

/**
 * What every VerificationLedger does, run against the in-memory fake (unit) and the
 * PostgreSQL adapter (integration). The serialisation of parallel transactions is the
 * adapter's own test: the fake runs one verification at a time.
 */
export function verificationLedgerContract(
  name: string,
  harness: () => VerificationLedgerHarness,
): void {
  describe(`${name} (VerificationLedger contract)`, () => {
    let ledger: VerificationLedger;
    let unitOfWork: UnitOfWork;
    let newUserId: () => Promise<number>;
    beforeEach(() => {
      ({ ledger, unitOfWork, newUserId } = harness());
    });

    it('starts empty, then loads what was saved: failures, channel locks, the user-wide lock', async () => {
      const userId = await newUserId();
      expect(await ledger.load(userId)).toEqual(emptyLedger());
      const now = Date.UTC(2026, 0, 1);
      let state = emptyLedger();
      for (let i = 0; i < 5; i += 1) state = recordFailure(state, 'email', now + i).ledger;
      state = recordFailure(state, 'totp', now + 10).ledger;
      state.userLockedUntilMs = now + 60_000;
      await unitOfWork.run(() => ledger.save(userId, state));
      expect(await ledger.load(userId)).toEqual(state);
      expect(await unitOfWork.run(() => ledger.lockAndLoad(userId))).toEqual(state);
      expect(await ledger.load(await newUserId())).toEqual(emptyLedger());
    });

    it('locks only inside a unit of work', async () => {
      await expect(ledger.lockAndLoad(await newUserId())).rejects.toThrow(/unit of work/);
    });

    it('a saved ledger rolls back with its unit of work', async () => {
      const userId = await newUserId();
      const failed = recordFailure(emptyLedger(), 'sms', Date.UTC(2026, 0, 1)).ledger;
      await expect(
        unitOfWork.run(async () => {
          await ledger.save(userId, failed);
          throw new Error('the action failed');
        }),
      ).rejects.toThrow('the action failed');
      expect(await ledger.load(userId)).toEqual(emptyLedger());
    });

    it('a challenge is spent once; a rolled-back spend leaves it unspent', async () => {
      const userId = await newUserId();
      const id = randomUUID();
      expect(await ledger.isChallengeSpent(id)).toBe(false);
      await expect(
        unitOfWork.run(async () => {
          expect(await ledger.markChallengeSpent(id, userId, new Date())).toBe(true);
          throw new Error('the action failed');
        }),
      ).rejects.toThrow('the action failed');
      expect(await ledger.isChallengeSpent(id)).toBe(false);
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          unitOfWork.run(() => ledger.markChallengeSpent(id, userId, new Date())),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await ledger.isChallengeSpent(id)).toBe(true);
    });
  });
}
