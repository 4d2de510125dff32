import { Injectable } from '@nestjs/common';
import { Clock, DomainError } from '@app/platform';
import { Challenge } from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { TfaMethod } from '../../domain/tfa-method';
import { lockDetails } from '../../domain/verification-failures';
import { ChallengeService } from '../challenges/challenge.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { VerificationLedger } from '../ports/verification-ledger.port';
import { Comparison, FactorVerifier, Verified } from './verification-flow.service';

export interface ChallengeCodeOptions {
  /** The code of a wrong code without a configured method behind it. */
  failure: '2fa_login_failed' | '2fa_verification_failed';
  /** The msg of a wrong code reported as 2fa_verification_failed. */
  wrongMessage?: string;
}

/**
 * The code sent on a challenge (SMS or email), spent by recording the challenge's id in
 * the verification ledger, so no secret of it works again; the challenge itself is retired
 * from its store once that committed.
 */
export class ChallengeCode implements FactorVerifier {
  readonly channel: 'sms' | 'email';

  constructor(
    private readonly challenges: ChallengeService,
    private readonly ledger: VerificationLedger,
    private readonly methods: TfaMethodRepository,
    private readonly clock: Clock,
    private readonly challenge: Challenge,
    private readonly code: string,
    private readonly method: TfaMethod | null,
    private readonly options: ChallengeCodeOptions,
  ) {
    this.channel = challenge.channel === 'email' ? 'email' : 'sms';
  }

  async verify(): Promise<Comparison> {
    if (await this.ledger.isChallengeSpent(this.challenge.id)) return 'replay';
    return this.challenges.codeMatches(this.challenge, this.code) ? 'match' : 'wrong';
  }

  /** Marks the challenge spent in the ledger (single use), then records the method's use. */
  async spend(): Promise<boolean> {
    const { challenge, method } = this;
    if (!(await this.ledger.markChallengeSpent(challenge.id, challenge.userId, this.clock.now())))
      return false;
    if (method) await this.methods.recordUse(method.id, this.clock.now());
    return true;
  }

  retire(): Promise<void> {
    return this.challenges.retire(this.challenge);
  }

  async verified(): Promise<Verified> {
    return { kind: 'method', channel: this.channel, method: this.method };
  }

  /** A configured method's failures are reported with its count (docs/identity-tfa.md). */
  wrongCode(failCount: number): DomainError {
    return this.method || this.options.failure === '2fa_verification_failed'
      ? new TfaError(
          '2fa_verification_failed',
          this.options.wrongMessage ?? TFA_ERROR_MESSAGES.invalidCode,
          lockDetails(failCount, null),
        )
      : new TfaError('2fa_login_failed', TFA_ERROR_MESSAGES.invalidCode);
  }

  replayedCode(): DomainError {
    return new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeSpent);
  }
}

/** The SMS and email factor: makes the request's ChallengeCode. */
@Injectable()
export class ChallengeCodeVerifier {
  constructor(
    private readonly challenges: ChallengeService,
    private readonly ledger: VerificationLedger,
    private readonly methods: TfaMethodRepository,
    private readonly clock: Clock,
  ) {}

  factor(
    challenge: Challenge,
    code: string,
    method: TfaMethod | null,
    options: ChallengeCodeOptions,
  ): ChallengeCode {
    return new ChallengeCode(
      this.challenges,
      this.ledger,
      this.methods,
      this.clock,
      challenge,
      code,
      method,
      options,
    );
  }
}
