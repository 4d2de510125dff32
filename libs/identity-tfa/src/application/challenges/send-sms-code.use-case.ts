import { Injectable } from '@nestjs/common';
import { Challenge } from '../../domain/challenge';
import { TfaError } from '../../domain/errors';
import {
  assertMaySendSms,
  isProviderRefusal,
  resolveSmsDestination,
} from '../../domain/sms-sending';
import { TFA_POLICY } from '../../domain/tfa-policy';
import { ChallengeService } from './challenge.service';
import { ChallengeStore } from '../ports/challenge.store.port';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { SmsBudget } from './sms-budget.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface SendSmsCommand {
  /** The Bearer caller; undefined on the logged-out flow (the secret is the credential). */
  userId?: number;
  secret?: string;
  phoneNumber?: string;
  tfaMethodId?: number;
}

/**
 * POST /tfa/sms/: a code by SMS on the named login challenge (logged out) or on a new
 * verify challenge (Bearer). A second send within the recent window is refused: use resend.
 */
@Injectable()
export class SendSmsCodeUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly challenges: ChallengeService,
    private readonly store: ChallengeStore,
    private readonly budget: SmsBudget,
  ) {}

  /** Answers the tfa_secret the code goes with. */
  async execute(command: SendSmsCommand): Promise<{ secret: string }> {
    const { user, challenge } = await this.lookup.caller(command);
    assertMaySendSms(user);
    const { destination, methodId } = resolveSmsDestination(
      user,
      await this.methods.listByUser(user.id),
      { ...command, loggedOut: command.userId === undefined },
    );
    if (challenge && challenge.sends > 0)
      throw new TfaError(
        'tfa_challenge_exists',
        'A code was already sent for this challenge: use resend.',
      );
    let target: Challenge;
    let secret: string;
    if (challenge && command.secret) {
      target = challenge;
      secret = command.secret;
    } else {
      ({ challenge: target, secret } = await this.challenges.open(user.id, 'verify'));
    }
    // The cheap refusal first: a request refused here is not charged to any SMS budget.
    if (!(await this.store.reserveRecentSms(user.id, target.key, TFA_POLICY.recentSmsWindowMs)))
      throw new TfaError('tfa_challenge_exists', 'A code was sent moments ago: use resend.');
    const request = {
      userId: user.id,
      destination,
      resend: false,
      smsFraudFlagged: user.smsFraudFlaggedAt !== null,
    };
    try {
      await this.budget.spend(request, () =>
        this.challenges.sendCode(target, 'sms', destination, methodId),
      );
    } catch (error) {
      if (!isProviderRefusal(error))
        await this.store.releaseRecentSms(user.id, target.key).catch(() => undefined);
      throw error;
    }
    return { secret };
  }
}
