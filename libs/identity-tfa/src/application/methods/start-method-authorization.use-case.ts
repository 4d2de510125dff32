import { Injectable } from '@nestjs/common';
import { isEmailVerified } from '@app/accounts';
import { DomainError, RequestOrigin } from '@app/platform';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { VerificationChannel } from '../../domain/tfa-method';
import { AddMethodGate } from './add-method-gate.service';
import { ChallengeService } from '../challenges/challenge.service';
import { EmailBudget } from '../challenges/email-budget.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { SecondFactorVerifier } from '../verification/second-factor-verifier.service';
import { SmsBudget } from '../challenges/sms-budget.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface StartAuthorizationCommand {
  userId: number;
  origin: RequestOrigin;
  tfaMethod?: VerificationChannel;
  tfaMethodId?: number;
  backupCode?: string;
}

export type StartAuthorizationResult = { kind: 'granted' } | { kind: 'challenge'; secret: string };

/**
 * POST authorize-new-method: a backup code grants the 30-minute window at once; otherwise
 * an `authorize` challenge is opened on an existing method (email for a user without one).
 */
@Injectable()
export class StartMethodAuthorizationUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly verifier: SecondFactorVerifier,
    private readonly challenges: ChallengeService,
    private readonly gate: AddMethodGate,
    private readonly budget: SmsBudget,
    private readonly emailBudget: EmailBudget,
  ) {}

  async execute(command: StartAuthorizationCommand): Promise<StartAuthorizationResult> {
    const user = await this.lookup.user(command.userId);
    if (command.backupCode !== undefined) {
      // A grant that fails (Redis away) rolls back the spending of the backup code.
      await this.verifier.verifyAndThen(
        user,
        { backupCode: command.backupCode },
        { purposes: [], failure: '2fa_verification_failed', origin: command.origin },
        () => this.gate.grant(user.id),
      );
      return { kind: 'granted' };
    }
    const existing = await this.methods.listByUser(user.id);
    let requested = command.tfaMethod;
    if (existing.length === 0) requested = 'email';
    else if (requested === undefined && command.tfaMethodId === undefined)
      requested = (existing.find((m) => m.isPrimary) ?? existing[0]).type;
    const method =
      requested === 'email'
        ? null
        : await this.verifier.resolveMethod(user, {
            tfaMethod: requested,
            tfaMethodId: command.tfaMethodId,
          });
    if (requested !== 'email' && !method)
      throw new TfaError('invalid_tfa_method', `No ${requested} method is configured.`);

    return this.createChallenge(async () => {
      if (!method) {
        if (!user.email) throw new TfaError('missing_email', TFA_ERROR_MESSAGES.missingEmail);
        if (!isEmailVerified(user))
          throw new TfaError('email_not_verified', TFA_ERROR_MESSAGES.emailNotVerified);
        const email = user.email;
        return this.emailBudget.spend({ userId: user.id, destination: email }, async () => {
          const opened = await this.challenges.open(user.id, 'authorize');
          await this.challenges.sendCode(opened.challenge, 'email', email, null);
          await this.challenges.supersedeEmailChallenge(opened.challenge);
          return opened.secret;
        });
      }
      if (method.type === 'totp') {
        const opened = await this.challenges.open(user.id, 'authorize', {
          channel: 'totp',
          methodId: method.id,
        });
        return opened.secret;
      }
      // The admin exemption covers the SMS send routes only, not this one.
      if (!isEmailVerified(user))
        throw new TfaError('email_not_verified', TFA_ERROR_MESSAGES.emailNotVerified);
      const request = {
        userId: user.id,
        destination: method.phoneNumber!,
        resend: false,
        smsFraudFlagged: user.smsFraudFlaggedAt !== null,
      };
      return this.budget.spend(request, async () => {
        const opened = await this.challenges.open(user.id, 'authorize');
        await this.challenges.sendCode(opened.challenge, 'sms', method.phoneNumber!, method.id);
        return opened.secret;
      });
    });
  }

  /** Store failures here are challenge_creation_failed (500, retry; docs/identity-tfa.md). */
  private async createChallenge(work: () => Promise<string>): Promise<StartAuthorizationResult> {
    try {
      return { kind: 'challenge', secret: await work() };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new TfaError('challenge_creation_failed', 'Could not create the challenge; retry.');
    }
  }
}
