import { Injectable } from '@nestjs/common';
import { Challenge } from '../domain/challenge';
import { TFA_POLICY } from '../domain/tfa-policy';
import { ChallengeService } from './challenge.service';
import { SmsSendingPolicy } from './ports/sms-sending-policy.port';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { assertMaySendSms, SendSmsCommand } from './send-sms-code.use-case';
import { withinSmsBudget } from './sms-budget';
import { resolveSmsDestination } from './sms-destination';
import { tfaError } from './tfa-errors';
import { TfaUserLookup } from './tfa-user-lookup';

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
    private readonly policy: SmsSendingPolicy,
  ) {}

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
      await withinSmsBudget(this.policy, first, () =>
        this.challenges.sendCode(challenge, 'sms', destination, methodId),
      );
      return { secret: command.secret! };
    }
    assertSameTarget(challenge, command);
    // Refused before the budgets are asked, so a refused resend costs nothing.
    assertMaySendAgain(challenge);
    const again = {
      userId: user.id,
      destination: challenge.destination!,
      resend: true,
      smsFraudFlagged,
    };
    return withinSmsBudget(this.policy, again, async () => {
      const secret = recovering ? await this.challenges.reissueSecret(challenge) : command.secret!;
      await this.challenges.sendCode(challenge, 'sms', challenge.destination!, challenge.methodId);
      return { secret };
    });
  }
}

function assertMaySendAgain(challenge: Challenge): void {
  if (challenge.sends >= TFA_POLICY.maxSendsPerChallenge)
    throw tfaError('sms_rate_limited', 'Too many codes requested for this challenge; start over.');
}

/** A resend goes where the challenge's code went, and nowhere else. */
function assertSameTarget(
  challenge: Challenge,
  command: Pick<SendSmsCommand, 'phoneNumber' | 'tfaMethodId'>,
): void {
  if (challenge.channel !== 'sms' || !challenge.destination)
    throw tfaError('no_challenge_found', 'This challenge has no SMS code to resend.');
  if (command.phoneNumber !== undefined && command.phoneNumber !== challenge.destination)
    throw tfaError('phone_number_mismatch', 'The phone number differs from the challenge.');
  if (command.tfaMethodId !== undefined && command.tfaMethodId !== challenge.methodId)
    throw tfaError('phone_number_mismatch', 'The method differs from the challenge.');
}
