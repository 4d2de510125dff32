import { Injectable } from '@nestjs/common';
import { ChallengeService } from './challenge.service';
import { SmsSendingPolicy } from './ports/sms-sending-policy.port';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { assertMaySendSms, SendSmsCommand } from './send-sms-code.use-case';
import { resolveSmsDestination } from './sms-destination';
import { tfaError } from './tfa-errors';
import { TfaUserLookup } from './tfa-user-lookup';

/**
 * POST /tfa/sms/resend/: a new code on the same challenge and number. With a Bearer
 * token and no secret the lost secret is recovered as a fresh challenge.
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
    const { user, challenge } = await this.lookup.caller(command);
    assertMaySendSms(user);
    let destination: string;
    let methodId: number | null;
    if (challenge?.channel === 'sms' && challenge.destination) {
      if (command.phoneNumber !== undefined && command.phoneNumber !== challenge.destination)
        throw tfaError('phone_number_mismatch', 'The phone number differs from the challenge.');
      if (command.tfaMethodId !== undefined && command.tfaMethodId !== challenge.methodId)
        throw tfaError('phone_number_mismatch', 'The method differs from the challenge.');
      destination = challenge.destination;
      methodId = challenge.methodId;
    } else {
      if (challenge && challenge.channel !== null)
        throw tfaError('no_challenge_found', 'This challenge has no SMS code to resend.');
      ({ destination, methodId } = resolveSmsDestination(
        user,
        await this.methods.listByUser(user.id),
        { ...command, loggedOut: command.userId === undefined },
      ));
    }
    await this.policy.assertMaySend({
      userId: user.id,
      destination,
      purpose: challenge?.purpose ?? 'verify',
      smsFraudFlagged: user.smsFraudFlaggedAt !== null,
    });
    if (challenge && command.secret) {
      await this.challenges.sendCode(challenge, 'sms', destination, methodId);
      return { secret: command.secret };
    }
    const opened = await this.challenges.open(user.id, 'verify');
    await this.challenges.sendCode(opened.challenge, 'sms', destination, methodId);
    return { secret: opened.secret };
  }
}
