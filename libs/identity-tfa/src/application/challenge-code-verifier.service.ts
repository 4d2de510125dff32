import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { Challenge } from '../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../domain/error-messages';
import { TfaError } from '../domain/errors';
import { TfaMethod } from '../domain/tfa-method';
import { lockDetails } from '../domain/verification-failures';
import { ChallengeService } from './challenge.service';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { VerificationLedger } from './ports/verification-ledger.port';
import { Attempt } from './verification-flow.service';

export interface ChallengeCodeOptions {
  /** The code of a wrong code without a configured method behind it. */
  failure: '2fa_login_failed' | '2fa_verification_failed';
  /** The msg of a wrong code reported as 2fa_verification_failed. */
  wrongMessage?: string;
}

/**
 * The SMS and email factor: the code sent on a challenge, spent by recording the
 * challenge's id in the verification ledger (so no secret of it works again).
 */
@Injectable()
export class ChallengeCodeVerifier {
  constructor(
    private readonly challenges: ChallengeService,
    private readonly ledger: VerificationLedger,
    private readonly methods: TfaMethodRepository,
    private readonly clock: Clock,
  ) {}

  attempt(
    challenge: Challenge,
    code: string,
    method: TfaMethod | null,
    options: ChallengeCodeOptions,
  ): Attempt {
    const channel = challenge.channel === 'email' ? 'email' : 'sms';
    return {
      channel,
      verified: async () => ({ kind: 'method', channel, method }),
      compare: async () => {
        if (await this.ledger.isChallengeSpent(challenge.id)) return 'replay';
        return this.challenges.codeMatches(challenge, code) ? 'match' : 'wrong';
      },
      spend: async () => {
        if (
          !(await this.ledger.markChallengeSpent(challenge.id, challenge.userId, this.clock.now()))
        )
          return false;
        if (method) await this.methods.recordUse(method.id, this.clock.now());
        return true;
      },
      retire: () => this.challenges.retire(challenge),
      // A configured method's failures are reported with its count (the spec's body).
      wrong: (failCount) =>
        method || options.failure === '2fa_verification_failed'
          ? new TfaError(
              '2fa_verification_failed',
              options.wrongMessage ?? TFA_ERROR_MESSAGES.invalidCode,
              lockDetails(failCount, null),
            )
          : new TfaError('2fa_login_failed', TFA_ERROR_MESSAGES.invalidCode),
      replay: () => new TfaError('no_challenge_found', TFA_ERROR_MESSAGES.challengeSpent),
    };
  }
}
