import { Injectable } from '@nestjs/common';
import { User } from '@app/accounts';
import { RequestOrigin } from '@app/platform';
import { Challenge, ChallengePurpose } from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { TfaMethod, VerificationChannel } from '../../domain/tfa-method';
import { BackupCodeVerifier } from './backup-code-verifier.service';
import { ChallengeCodeVerifier } from './challenge-code-verifier.service';
import { ChallengeService } from '../challenges/challenge.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { TotpVerifier } from './totp-verifier.service';
import {
  FactorVerifier,
  OnVerified,
  VerificationFlow,
  Verified,
} from './verification-flow.service';

export type { Verified } from './verification-flow.service';

/** What the caller sent to prove the second factor. */
export interface FactorInput {
  tfaMethod?: VerificationChannel;
  tfaMethodId?: number;
  code?: string;
  secret?: string;
  backupCode?: string;
}

export interface VerifyOptions {
  /** Where the request came from, for the events the verification records. */
  origin: RequestOrigin;
  /** Challenge purposes this endpoint accepts. */
  purposes: ChallengePurpose[];
  /** The code for failures without a configured method behind them. */
  failure: '2fa_login_failed' | '2fa_verification_failed';
  /**
   * A challenge that a success uses up besides the factor itself: the login secret of
   * a TOTP or backup-code login.
   */
  alsoSpend?: Challenge | null;
}

/**
 * The second-factor check of login, removal, regeneration and authorization: finds which
 * factor a request names (a TOTP method, the SMS or email code of a challenge, a backup
 * code), refuses what needs no comparison, and hands that factor (a FactorVerifier) to the
 * one VerificationFlow.
 */
@Injectable()
export class SecondFactorVerifier {
  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly challenges: ChallengeService,
    private readonly totp: TotpVerifier,
    private readonly challengeCodes: ChallengeCodeVerifier,
    private readonly backupCodes: BackupCodeVerifier,
    private readonly flow: VerificationFlow,
  ) {}

  async verify(user: User, input: FactorInput, options: VerifyOptions): Promise<Verified> {
    return (await this.verifyAndThen(user, input, options, async () => undefined)).verified;
  }

  /** `verify`, then `then` atomically with the spending of the factor (see OnVerified). */
  async verifyAndThen<T>(
    user: User,
    input: FactorInput,
    options: VerifyOptions,
    then: OnVerified<T>,
  ): Promise<{ verified: Verified; result: T }> {
    return this.flow.verify(
      {
        userId: user.id,
        origin: options.origin,
        label: input.backupCode !== undefined ? 'backup_code' : (input.tfaMethod ?? 'auto'),
        factor: () => this.resolveFactor(user, input, options),
        alsoSpend: options.alsoSpend,
      },
      then,
    );
  }

  /**
   * The PUT step of authorize-new-method: the code of an `authorize` challenge (SMS,
   * email, or a TOTP code when the challenge names the authenticator app, which then
   * spends the challenge too).
   */
  async verifyAuthorizationCode<T>(
    user: User,
    challenge: Challenge,
    code: string,
    origin: RequestOrigin,
    then: () => Promise<T>,
  ): Promise<T> {
    const failure = '2fa_verification_failed';
    const totp = challenge.channel === 'totp';
    const outcome = await this.flow.verify(
      {
        userId: user.id,
        origin,
        label: challenge.channel ?? 'auto',
        factor: async () => {
          const method =
            challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null;
          const owned = method?.userId === user.id ? method : null;
          if (!totp) return this.challengeCodes.factor(challenge, code, owned, { failure });
          if (!owned)
            throw new TfaError(
              'no_pending_authorization',
              'The method of this authorization is gone.',
            );
          return this.totp.factor(owned, code);
        },
        alsoSpend: totp ? challenge : null,
      },
      then,
    );
    return outcome.result;
  }

  /**
   * confirm-new for an SMS method: the code sent to the new number, counted against the
   * user's SMS channel, spent with the creation of the method.
   */
  async verifyNewNumberCode<T>(
    user: User,
    challenge: Challenge,
    code: string,
    origin: RequestOrigin,
    then: () => Promise<T>,
  ): Promise<T> {
    const outcome = await this.flow.verify(
      {
        userId: user.id,
        origin,
        label: 'sms',
        factor: async () =>
          this.challengeCodes.factor(challenge, code, null, {
            failure: '2fa_verification_failed',
            wrongMessage: 'Invalid SMS code.',
          }),
      },
      then,
    );
    return outcome.result;
  }

  /**
   * tfa_method_id wins (404 when it is not the caller's); otherwise the one method of the
   * requested type. Email never resolves to a method.
   */
  async resolveMethod(
    user: User,
    input: Pick<FactorInput, 'tfaMethod' | 'tfaMethodId'>,
  ): Promise<TfaMethod | null> {
    if (input.tfaMethodId !== undefined) {
      const method = await this.methods.findById(input.tfaMethodId);
      if (!method || method.userId !== user.id)
        throw new TfaError('not_found', TFA_ERROR_MESSAGES.noSuchMethod(input.tfaMethodId));
      if (input.tfaMethod !== undefined && input.tfaMethod !== method.type)
        throw new TfaError(
          'invalid_tfa_method',
          `Method ${method.id} is not a ${input.tfaMethod} method.`,
        );
      return method;
    }
    const type = input.tfaMethod ?? 'sms';
    if (type === 'email') return null;
    const candidates = (await this.methods.listByUser(user.id)).filter((m) => m.type === type);
    if (candidates.length > 1)
      throw new TfaError(
        'bad_request',
        `tfa_method_id is required: several ${type} methods exist.`,
      );
    return candidates[0] ?? null;
  }

  /** Resolves the factor and refuses what needs no comparison; nothing is counted here. */
  private async resolveFactor(
    user: User,
    input: FactorInput,
    options: VerifyOptions,
  ): Promise<FactorVerifier> {
    if (input.backupCode !== undefined) return this.backupCodes.factor(user, input.backupCode);
    // Wire code missing_auth_value (400); the 401 of the same name is the auth guard's.
    const code = input.code;
    if (!code) throw new TfaError('missing_code', 'A code or a backup_code is required.');
    if (input.tfaMethod === undefined && input.tfaMethodId === undefined && input.secret) {
      // An email challenge needs no tfa_method: the secret says how the code was sent.
      const challenge = await this.challenges.load(input.secret);
      if (challenge.channel === 'email') input = { ...input, tfaMethod: 'email' };
    }
    const method = await this.resolveMethod(user, input);
    const channel: VerificationChannel = method?.type ?? input.tfaMethod ?? 'sms';
    // Without a configured method behind it, a refusal is the endpoint's failure code.
    const failure = options.failure;
    if (channel === 'totp') {
      if (!method) throw new TfaError(failure, 'No authenticator app is configured.');
      return this.totp.factor(method, code);
    }
    if (!input.secret)
      throw new TfaError('missing_params', `The secret of the ${channel} code is required.`);
    const challenge = await this.challenges.load(input.secret);
    if (challenge.userId !== user.id || !options.purposes.includes(challenge.purpose))
      throw new TfaError('challenge_not_found', TFA_ERROR_MESSAGES.challengeNotFound);
    if (challenge.channel !== channel)
      throw new TfaError(failure, `No ${channel} code was sent for this challenge.`);
    if (channel === 'email') {
      if (challenge.destination?.toLowerCase() !== user.email.toLowerCase())
        throw new TfaError(failure, 'The code was not sent to the email address on file.');
      return this.challengeCodes.factor(challenge, code, null, options);
    }
    const smsMethod =
      method ??
      (challenge.methodId !== null ? await this.methods.findById(challenge.methodId) : null);
    if (smsMethod && smsMethod.userId === user.id) {
      if (smsMethod.phoneNumber !== challenge.destination)
        throw new TfaError('phone_number_mismatch', TFA_ERROR_MESSAGES.codeSentElsewhere);
      return this.challengeCodes.factor(challenge, code, smsMethod, options);
    }
    // Legacy accounts: 2FA by SMS to the phone on the user record, no method row.
    if (
      user.tfaStatus === 'legacy' &&
      user.phoneNumber &&
      challenge.destination === user.phoneNumber
    )
      return this.challengeCodes.factor(challenge, code, null, options);
    throw new TfaError(failure, 'No SMS 2FA method is configured for this phone number.');
  }
}
