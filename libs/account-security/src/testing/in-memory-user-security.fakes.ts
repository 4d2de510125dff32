import { SnapshotUnitOfWork, Transactional } from '@app/platform/testing';
import {
  ErasedSecondFactor,
  SecondFactorEraser,
} from '../application/ports/second-factor-eraser.port';
import { UserSecurityLock } from '../application/ports/user-security-lock.port';

/** Records who took the lock (the fakes run one request at a time, so it holds nothing). */
export class RecordingUserSecurityLock extends UserSecurityLock {
  readonly locked: number[] = [];

  constructor(private readonly unitOfWork: SnapshotUnitOfWork) {
    super();
  }

  async lock(userId: number) {
    if (!this.unitOfWork.inTransaction)
      throw new Error('UserSecurityLock.lock must run inside a unit of work');
    this.locked.push(userId);
  }
}

/**
 * The second factor of each user as counts (methods, unused backup codes), which the reset
 * erases; a failed unit of work gives them back.
 */
export class InMemorySecondFactor extends SecondFactorEraser implements Transactional {
  factors = new Map<number, ErasedSecondFactor>();

  snapshot() {
    const factors = structuredClone(this.factors);
    return () => {
      this.factors = factors;
    };
  }

  /** Gives the user `methods` methods and `backupCodes` unused backup codes. */
  give(userId: number, methods: number, backupCodes: number) {
    this.factors.set(userId, { methodsRemoved: methods, backupCodesRevoked: backupCodes });
  }

  /** What the user still has. */
  of(userId: number) {
    const factor = this.factors.get(userId);
    return { methods: factor?.methodsRemoved ?? 0, backupCodes: factor?.backupCodesRevoked ?? 0 };
  }

  async eraseAll(userId: number) {
    const erased = this.factors.get(userId) ?? { methodsRemoved: 0, backupCodesRevoked: 0 };
    this.factors.delete(userId);
    return erased;
  }
}
