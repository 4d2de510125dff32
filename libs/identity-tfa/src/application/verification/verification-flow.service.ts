import { Injectable } from '@nestjs/common';
import { Clock, DomainError, Metrics, RequestOrigin, UnitOfWork } from '@app/platform';
import { Challenge } from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { TfaMethod, VerificationChannel } from '../../domain/tfa-method';
import {
  activeLock,
  channelView,
  FailureChannel,
  lockDetails,
  recordFailure,
  recordSuccess,
} from '../../domain/verification-failures';
import { ChallengeService } from '../challenges/challenge.service';
import { VerificationLedger } from '../ports/verification-ledger.port';
import { SecurityEventLog } from '@app/account-security';

export type Verified =
  | { kind: 'method'; channel: VerificationChannel; method: TfaMethod | null }
  | { kind: 'backup_code'; remaining: number };

/**
 * What must happen exactly when the factor is spent (the login's session, the removal,
 * the new backup codes). It commits in one database transaction with the spending of the
 * factor, so a failure of either leaves both undone and the code usable.
 */
export type OnVerified<T> = (verified: Verified) => Promise<T>;

export type Comparison = 'match' | 'wrong' | 'replay';

/**
 * One second factor of one request (a TOTP code, the code of a challenge, a backup code),
 * resolved and validated by its factor's verifier service, ready to be checked and spent
 * under the user's lock. Each factor is a class: where it compares, spends and retires a
 * code is a method of that class (TotpCode, ChallengeCode, BackupCode).
 */
export interface FactorVerifier {
  readonly channel: FailureChannel;
  /**
   * Compares; 'replay' for a code accepted before (never counted). Backup codes and TOTP
   * steps are spent by the comparison itself; the transaction undoes that if what follows
   * fails.
   */
  verify(nowMs: number): Promise<Comparison>;
  /** Spends what the comparison did not; false when it turns out to be spent already. */
  spend(): Promise<boolean>;
  /** Retires what was spent outside the database, once the transaction committed. */
  retire(): Promise<void>;
  /** What the request proved, read after spending (the backup codes left, for one). */
  verified(): Promise<Verified>;
  /** The refusal of a wrong code, with the channel's count of failures. */
  wrongCode(failCount: number): DomainError;
  /** The refusal of a code already accepted, which leaves the count as it is. */
  replayedCode(view: { failCount: number; lockedUntilMs: number | null }): DomainError;
}

export interface VerificationRequest {
  userId: number;
  /** Where the request came from, for the events a verification records. */
  origin: RequestOrigin;
  /** The `method` label of tfa_verifications_total when the request fails. */
  label: string;
  /** Resolves the factor and refuses what needs no comparison; nothing is counted there. */
  factor: () => Promise<FactorVerifier>;
  /**
   * A challenge that a success uses up besides the factor itself: the login secret of
   * a TOTP or backup-code login, the authorization of a TOTP authorize-new-method.
   */
  alsoSpend?: Challenge | null;
}

type Outcome<T> =
  | { kind: 'accepted'; verified: Verified; result: T }
  /** Refused under the lock; the transaction commits whatever was counted. */
  | { kind: 'refused'; error: DomainError };

/**
 * The one flow every second factor goes through (login, removal, regeneration,
 * authorization, a new number).
 *
 * Everything that can refuse a request without looking at the code (shape, method,
 * challenge, ownership) is checked first by the factor's verifier and costs nothing. Then,
 * under a lock held on the user's failure ledger for one database transaction, the code is
 * compared, a wrong code is counted against its channel, and a right one is spent in the
 * same transaction as the action it authorises. So: at most the budget of wrong codes is
 * ever compared, whatever the parallelism; of N requests with one correct code exactly one
 * succeeds; a replayed code is refused without being counted; and a failed action spends
 * nothing. docs/identity-tfa.md, "Counting failures", gives the numbers. The failure that
 * locks a channel records method_locked, and a backup code spent records backup_code_used,
 * each in that same transaction.
 */
@Injectable()
export class VerificationFlow {
  constructor(
    private readonly ledger: VerificationLedger,
    private readonly challenges: ChallengeService,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: SecurityEventLog,
  ) {}

  /** Verifies, then runs `then` atomically with the spending of the factor (see OnVerified). */
  async verify<T>(
    request: VerificationRequest,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    try {
      const outcome = await this.run(request, await request.factor(), then);
      const { verified } = outcome;
      this.count(verified.kind === 'backup_code' ? 'backup_code' : verified.channel, 'success');
      return outcome;
    } catch (error) {
      this.count(request.label, error instanceof DomainError ? error.code : 'error');
      throw error;
    }
  }

  private count(method: string, outcome: string): void {
    this.metrics.increment('tfa_verifications_total', { method, outcome });
  }

  /**
   * Compares under the user's lock and spends with `then`, in one transaction. A wrong
   * code's count commits on its own (the transaction ends normally, then the error is
   * thrown), so a failure stays counted.
   */
  private async run<T>(
    request: VerificationRequest,
    factor: FactorVerifier,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    const { userId, origin } = request;
    const extra = request.alsoSpend ?? null;
    const outcome = await this.unitOfWork
      .run(async (): Promise<Outcome<T>> => {
        const ledger = await this.ledger.lockAndLoad(userId);
        const nowMs = this.clock.nowMs();
        const refused = (error: DomainError) => ({ kind: 'refused' as const, error });
        const lock = activeLock(ledger, factor.channel, nowMs);
        if (lock)
          return refused(
            new TfaError(
              'tfa_locked',
              TFA_ERROR_MESSAGES.locked,
              lockDetails(lock.failCount, lock.lockedUntilMs),
            ),
          );
        if (extra && (await this.ledger.isChallengeSpent(extra.id)))
          return refused(new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeSpent));
        const comparison = await factor.verify(nowMs);
        if (comparison === 'replay')
          return refused(factor.replayedCode(channelView(ledger, factor.channel, nowMs)));
        if (comparison === 'wrong') {
          const recorded = recordFailure(ledger, factor.channel, nowMs);
          await this.ledger.save(userId, recorded.ledger);
          if (!recorded.lock) return refused(factor.wrongCode(recorded.failCount));
          this.metrics.increment('tfa_lockouts_total', { method: factor.channel });
          const channelLocked = recorded.ledger.channels[factor.channel]?.lockedUntilMs != null;
          await this.events.record({
            userId,
            kind: 'method_locked',
            method: factor.channel,
            // A channel's own budget, or the user-wide one (every channel is locked then).
            details: {
              scope: channelLocked ? 'channel' : 'user',
              fail_count: recorded.lock.failCount,
            },
            origin,
          });
          return refused(
            new TfaError(
              'tfa_locked',
              TFA_ERROR_MESSAGES.locked,
              lockDetails(recorded.lock.failCount, recorded.lock.lockedUntilMs),
            ),
          );
        }
        const spent =
          (await factor.spend()) &&
          (!extra || (await this.ledger.markChallengeSpent(extra.id, userId, this.clock.now())));
        // Cannot happen under the lock; if it did, the rollback undoes a partial spend.
        if (!spent) throw new SpentMeanwhile();
        // What was spent outside the database is retired once this commits (never after a
        // rollback), first among the effects: before the action's own, such as its notices.
        this.unitOfWork.afterCommit(async () => {
          await factor.retire();
          if (extra) await this.challenges.retire(extra);
        });
        const verified = await factor.verified();
        const result = await then(verified);
        if (verified.kind === 'backup_code') {
          // Counted after the action, which may have replaced or removed the set (a
          // regeneration, the removal of the last method): the notice says what is left.
          const after = await factor.verified();
          await this.events.record({
            userId,
            kind: 'backup_code_used',
            method: 'backup_code',
            details: { remaining: after.kind === 'backup_code' ? after.remaining : 0 },
            origin,
          });
        }
        if (ledger.channels[factor.channel]?.failuresMs.length)
          await this.ledger.save(userId, recordSuccess(ledger, factor.channel));
        return { kind: 'accepted', verified, result };
      })
      .catch((error: unknown): Outcome<T> => {
        if (error instanceof SpentMeanwhile)
          return {
            kind: 'refused',
            error: new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeSpent),
          };
        throw error;
      });
    if (outcome.kind === 'refused') throw outcome.error;
    return { verified: outcome.verified, result: outcome.result };
  }
}

/** A factor spent by another request between the comparison and the spending. */
class SpentMeanwhile extends Error {
  constructor() {
    super(TFA_ERROR_MESSAGES.challengeSpent);
  }
}
