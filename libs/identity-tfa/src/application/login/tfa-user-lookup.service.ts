import { Injectable } from '@nestjs/common';
import { User, UserRepository } from '@app/accounts';
import { Challenge, ChallengePurpose } from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { ChallengeService } from '../challenges/challenge.service';

/** Who is calling a secret-or-Bearer route, and the challenge they named (if any). */
export interface CallerInput {
  /** From the Bearer credential; undefined on the logged-out (secret only) flow. */
  userId?: number;
  secret?: string;
}

/** The user behind a 2FA request: by the Bearer credential, or by the login secret alone. */
@Injectable()
export class TfaUserLookup {
  constructor(
    private readonly users: UserRepository,
    private readonly challenges: ChallengeService,
  ) {}

  async user(userId: number): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw new TfaError('auth_invalid_key', 'Invalid user key');
    return user;
  }

  /**
   * Logged out, the secret must be a login challenge (it is the only credential); with a
   * Bearer token, a named secret must be one of the caller's own login/verify challenges.
   */
  async caller(input: CallerInput): Promise<{ user: User; challenge: Challenge | null }> {
    const allowed: ChallengePurpose[] =
      input.userId === undefined ? ['login'] : ['login', 'verify'];
    const challenge = input.secret ? await this.challenges.load(input.secret) : null;
    if (challenge) {
      const owner = input.userId ?? challenge.userId;
      if (challenge.userId !== owner || !allowed.includes(challenge.purpose))
        throw new TfaError('challenge_not_found', TFA_ERROR_MESSAGES.challengeNotFound);
    }
    const userId = input.userId ?? challenge?.userId;
    if (userId === undefined)
      throw new TfaError(
        'missing_auth_value',
        'Either a tfa_secret or a Bearer token is required.',
      );
    return { user: await this.user(userId), challenge };
  }
}
