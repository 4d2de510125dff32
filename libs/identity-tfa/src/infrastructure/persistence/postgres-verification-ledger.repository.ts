import { Injectable } from '@nestjs/common';
import { UserSecurityLock } from '@app/account-security';
import { TransactionalEntityManager } from '@app/platform';
import { VerificationLedger } from '../../application/ports/verification-ledger.port';
import {
  ChannelFailures,
  emptyLedger,
  FailureChannel,
  FailureLedger,
} from '../../domain/verification-failures';

/** The user-wide lock lives in a row of its own beside the channels. */
const USER_ROW = 'user';

/** How long a spent challenge is remembered: far beyond any challenge's lifetime. */
const SPENT_MEMORY_MS = 24 * 3600 * 1000;

interface FailureRow {
  channel: FailureChannel | typeof USER_ROW;
  failures: Date[];
  locked_until: Date | null;
}

@Injectable()
export class PostgresVerificationLedgerRepository extends VerificationLedger {
  constructor(
    private readonly tx: TransactionalEntityManager,
    private readonly userLock: UserSecurityLock,
  ) {
    super();
  }

  async lockAndLoad(userId: number): Promise<FailureLedger> {
    await this.lockUser(userId);
    return this.load(userId);
  }

  async lockUser(userId: number): Promise<void> {
    if (!this.tx.inTransaction)
      throw new Error('VerificationLedger.lockUser must run inside a unit of work');
    // Account security's per-user lock: the one its device logins and revocations hold.
    await this.userLock.lock(userId);
  }

  async load(userId: number): Promise<FailureLedger> {
    const rows = await this.tx.rows<FailureRow>(
      `SELECT channel, failures, locked_until FROM tfa_verification_failures WHERE user_id = $1`,
      [userId],
    );
    const ledger = emptyLedger();
    for (const row of rows) {
      if (row.channel === USER_ROW) ledger.userLockedUntilMs = time(row.locked_until);
      else
        ledger.channels[row.channel] = {
          failuresMs: row.failures.map((at) => new Date(at).getTime()),
          lockedUntilMs: time(row.locked_until),
        };
    }
    return ledger;
  }

  async save(userId: number, ledger: FailureLedger): Promise<void> {
    const entries = Object.entries(ledger.channels) as Array<[FailureChannel, ChannelFailures]>;
    const rows = [
      ...entries.map(([channel, entry]) => ({
        channel,
        failures: entry.failuresMs.map((at) => new Date(at).toISOString()),
        locked_until: iso(entry.lockedUntilMs),
      })),
      { channel: USER_ROW, failures: [], locked_until: iso(ledger.userLockedUntilMs) },
    ];
    await this.tx.rows(
      `INSERT INTO tfa_verification_failures (user_id, channel, failures, locked_until)
       SELECT $1, r.channel, ARRAY(SELECT jsonb_array_elements_text(r.failures)::timestamptz),
              r.locked_until
         FROM jsonb_to_recordset($2::jsonb) AS r(channel text, failures jsonb, locked_until timestamptz)
       ON CONFLICT (user_id, channel)
       DO UPDATE SET failures = EXCLUDED.failures, locked_until = EXCLUDED.locked_until`,
      [userId, JSON.stringify(rows)],
    );
  }

  async markChallengeSpent(challengeId: string, userId: number, now: Date): Promise<boolean> {
    // Forget this user's old entries on the way: they outlived every challenge they named.
    await this.tx.rows(`DELETE FROM tfa_spent_challenges WHERE user_id = $1 AND spent_at < $2`, [
      userId,
      new Date(now.getTime() - SPENT_MEMORY_MS),
    ]);
    const rows = await this.tx.rows(
      `INSERT INTO tfa_spent_challenges (challenge_id, user_id, spent_at) VALUES ($1, $2, $3)
       ON CONFLICT (challenge_id) DO NOTHING RETURNING challenge_id`,
      [challengeId, userId, now],
    );
    return rows.length === 1;
  }

  async isChallengeSpent(challengeId: string): Promise<boolean> {
    const rows = await this.tx.rows(`SELECT 1 FROM tfa_spent_challenges WHERE challenge_id = $1`, [
      challengeId,
    ]);
    return rows.length > 0;
  }
}

const time = (date: Date | null) => (date ? new Date(date).getTime() : null);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
