import { UnitOfWork } from '@app/platform';
import { UserSecurityLock } from '../application/ports/user-security-lock.port';

export interface UserSecurityLockHarness {
  lock: UserSecurityLock;
  /** The unit of work the lock joins (a transaction, or the fakes' snapshot). */
  unitOfWork: UnitOfWork;
}

/**
 * What every UserSecurityLock does, run against the recording fake (unit) and the
 * PostgreSQL adapter (integration). That two transactions of one user wait for each other
 * is the adapter's own test: the fakes run one request at a time.
 */
export function userSecurityLockContract(
  name: string,
  harness: () => UserSecurityLockHarness,
): void {
  describe(`${name} (UserSecurityLock contract)`, () => {
    it('locks only inside a unit of work', async () => {
      const { lock } = harness();
      await expect(lock.lock(7)).rejects.toThrow(/unit of work/);
    });

    it('is taken inside a unit of work, again by the same transaction, and for several users', async () => {
      const { lock, unitOfWork } = harness();
      await expect(
        unitOfWork.run(async () => {
          await lock.lock(7);
          await lock.lock(7);
          await lock.lock(8);
          return 'done';
        }),
      ).resolves.toBe('done');
    });
  });
}
