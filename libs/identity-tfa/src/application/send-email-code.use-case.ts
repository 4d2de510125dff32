import { Injectable } from '@nestjs/common';
import { isEmailVerified } from '@app/accounts';
import { TFA_ERROR_MESSAGES } from '../domain/error-messages';
import { TfaError } from '../domain/errors';
import { ChallengeService } from './challenge.service';
import { TfaUserLookup } from './tfa-user-lookup.service';

export interface SendEmailCommand {
  /** The Bearer caller; undefined on the logged-out flow (the secret is the credential). */
  userId?: number;
  secret?: string;
}

/**
 * POST /tfa/email/: a code to the verified email. On a named challenge the code is
 * (re)sent there; a Bearer call without a secret opens a fresh challenge every time.
 */
@Injectable()
export class SendEmailCodeUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly challenges: ChallengeService,
  ) {}

  /** Answers the tfa_secret the code goes with. */
  async execute(command: SendEmailCommand): Promise<{ secret: string }> {
    const { user, challenge } = await this.lookup.caller(command);
    if (!user.email) throw new TfaError('missing_email', TFA_ERROR_MESSAGES.missingEmail);
    if (!isEmailVerified(user))
      throw new TfaError('email_not_verified', TFA_ERROR_MESSAGES.emailNotVerified);
    if (challenge && command.secret) {
      await this.challenges.sendCode(challenge, 'email', user.email, null);
      return { secret: command.secret };
    }
    const opened = await this.challenges.open(user.id, 'verify');
    await this.challenges.sendCode(opened.challenge, 'email', user.email, null);
    return { secret: opened.secret };
  }
}
