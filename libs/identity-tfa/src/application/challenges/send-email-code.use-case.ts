import { Injectable } from '@nestjs/common';
import { isEmailVerified } from '@app/accounts';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { ChallengeService } from './challenge.service';
import { EmailBudget } from './email-budget.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface SendEmailCommand {
  /** The Bearer caller; undefined on the logged-out flow (the secret is the credential). */
  userId?: number;
  secret?: string;
}

/**
 * POST /tfa/email/: a code to the verified email, within the email budgets (EmailBudget,
 * counted before anything is queued). On a named challenge the code is (re)sent there; a
 * Bearer call without a secret opens a fresh challenge, which supersedes the one the
 * previous such call opened (retired at once).
 */
@Injectable()
export class SendEmailCodeUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly challenges: ChallengeService,
    private readonly budget: EmailBudget,
  ) {}

  /** Answers the tfa_secret the code goes with. */
  async execute(command: SendEmailCommand): Promise<{ secret: string }> {
    const { user, challenge } = await this.lookup.caller(command);
    if (!user.email) throw new TfaError('missing_email', TFA_ERROR_MESSAGES.missingEmail);
    if (!isEmailVerified(user))
      throw new TfaError('email_not_verified', TFA_ERROR_MESSAGES.emailNotVerified);
    const email = user.email;
    return this.budget.spend({ userId: user.id, destination: email }, async () => {
      if (challenge && command.secret) {
        await this.challenges.sendCode(challenge, 'email', email, null);
        return { secret: command.secret };
      }
      const opened = await this.challenges.open(user.id, 'verify');
      await this.challenges.sendCode(opened.challenge, 'email', email, null);
      await this.challenges.supersedeEmailChallenge(opened.challenge);
      return { secret: opened.secret };
    });
  }
}
