import { Injectable } from '@nestjs/common';
import { hasSendsLeft } from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import {
  assertMaySendSms,
  assertSameSmsTarget,
  resolveSmsDestination,
} from '../../domain/sms-sending';
import { ChallengeService } from './challenge.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { SendSmsCommand } from './send-sms-code.use-case';
import { SmsBudget } from './sms-budget.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

/**
 * POST /tfa/sms/resend/: the challenge's code again, to the same number. A login challenge
 * that has no code yet gets its first one. With a Bearer token and no secret, the caller's
 * pending SMS challenge is found and handed back under a fresh secret.
 */
@Injectable()
export class ResendSmsCodeUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly challenges: ChallengeService,
    private readonly budget: SmsBudget,
  ) {}

  /** Answers the tfa_secret the code goes with (a fresh one when the secret was recovered). */
  async execute(command: SendSmsCommand): Promise<{ secret: string }> {
    const { user, challenge: named } = await this.lookup.caller(command);
    assertMaySendSms(user);
    const recovering = !command.secret;
    const challenge = named ?? (await this.challenges.pendingSms(user.id));
    const smsFraudFlagged = user.smsFraudFlaggedAt !== null;

    if (challenge.channel === null) {
      // A login challenge without a code yet: this is its first SMS.
      const { destination, methodId } = resolveSmsDestination(
        user,
        await this.methods.listByUser(user.id),
        { ...command, loggedOut: command.userId === undefined },
      );
      const first = { userId: user.id, destination, resend: false, smsFraudFlagged };
      await this.budget.spend(first, () =>
        this.challenges.sendCode(challenge, 'sms', destination, methodId),
      );
      return { secret: command.secret! };
    }
    assertSameSmsTarget(challenge, command);
    // Refused before the budgets are asked, so a refused resend costs nothing.
    if (!hasSendsLeft(challenge))
      throw new TfaError('sms_rate_limited', TFA_ERROR_MESSAGES.tooManySends);
    const again = {
      userId: user.id,
      destination: challenge.destination!,
      resend: true,
      smsFraudFlagged,
    };
    return this.budget.spend(again, async () => {
      const secret = recovering ? await this.challenges.reissueSecret(challenge) : command.secret!;
      await this.challenges.sendCode(challenge, 'sms', challenge.destination!, challenge.methodId);
      return { secret };
    });
  }
}
