import { Injectable } from '@nestjs/common';
import { isEmailVerified } from '@app/accounts';
import { ChallengeService } from './challenge.service';
import { tfaError } from './tfa-errors';
import { TfaUserLookup } from './tfa-user-lookup';

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

  async execute(command: { userId?: number; secret?: string }): Promise<{ secret: string }> {
    const { user, challenge } = await this.lookup.caller(command);
    if (!user.email) throw tfaError('missing_email', 'No email address is on the account.');
    if (!isEmailVerified(user))
      throw tfaError('email_not_verified', 'Verify your email address before using 2FA codes.');
    if (challenge && command.secret) {
      await this.challenges.sendCode(challenge, 'email', user.email, null);
      return { secret: command.secret };
    }
    const opened = await this.challenges.open(user.id, 'verify');
    await this.challenges.sendCode(opened.challenge, 'email', user.email, null);
    return { secret: opened.secret };
  }
}
