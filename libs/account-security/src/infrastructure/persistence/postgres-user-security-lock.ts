import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { UserSecurityLock } from '../../application/ports/user-security-lock.port';

/**
 * First key of the advisory lock that serialises one user's security changes and
 * verifications. Its value is the one the verification ledger has always taken, so that
 * processes of two versions during a rolling deploy still exclude each other.
 */
const USER_SECURITY_LOCK_SPACE = 0x7fa0_0001;

@Injectable()
export class PostgresUserSecurityLock extends UserSecurityLock {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async lock(userId: number): Promise<void> {
    if (!this.tx.inTransaction)
      throw new Error('UserSecurityLock.lock must run inside a unit of work');
    // A transaction-scoped advisory lock: released by COMMIT or ROLLBACK, whatever happens
    // to the process, and it needs no row to exist first.
    await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [USER_SECURITY_LOCK_SPACE, userId]);
  }
}
