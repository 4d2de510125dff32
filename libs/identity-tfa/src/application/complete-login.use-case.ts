import { Injectable } from '@nestjs/common';
import { CredentialIssuer, User } from '@app/accounts';
import { Challenge } from '../domain/challenge';
import { TfaError } from '../domain/errors';
import { FactorInput, SecondFactorVerifier } from './second-factor-verifier.service';
import { TfaUserLookup } from './tfa-user-lookup.service';

export interface CompleteLoginCommand {
  /** The Bearer caller (command-line flow); undefined in the logged-out flow. */
  userId?: number;
  factor: FactorInput;
  admin: boolean;
}

export interface CompletedLogin {
  user: User;
  sessionKey: string;
  expiresAt: Date;
  /** Set only when a backup code was used and unused codes remain. */
  backupCodesRemaining?: number;
  legacy: boolean;
}

/** POST /tfa/: the second factor, then a session (admin only for admin users). */
@Injectable()
export class CompleteLoginUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly verifier: SecondFactorVerifier,
    private readonly issuer: CredentialIssuer,
  ) {}

  async execute(command: CompleteLoginCommand): Promise<CompletedLogin> {
    const { user, challenge } = await this.lookup.caller({
      userId: command.userId,
      secret: command.factor.secret,
    });
    if (user.tfaStatus === 'disabled')
      throw new TfaError(
        '2fa_login_failed',
        'Two-factor authentication is not enabled for this account.',
      );
    // Logged out, the secret is the credential: a TOTP or backup-code success uses it up
    // with the factor (an SMS or email code spends its own challenge).
    const viaSecretOnly = command.userId === undefined && challenge !== null;
    const alsoSpend = viaSecretOnly && this.codeless(command.factor, challenge) ? challenge : null;
    // The session is issued in the transaction that spends the factor: a code is never
    // spent without its session, nor a session issued without its code.
    const { verified, result: session } = await this.verifier.verifyAndThen(
      user,
      command.factor,
      { purposes: ['login', 'verify'], failure: '2fa_login_failed', alsoSpend },
      () => this.issuer.issueSession(user.id, { isAdmin: command.admin && user.isAdmin }),
    );
    return {
      user,
      ...session,
      ...(verified.kind === 'backup_code' && verified.remaining > 0
        ? { backupCodesRemaining: verified.remaining }
        : {}),
      legacy: user.tfaStatus === 'legacy',
    };
  }

  /** True when the factor will not consume the challenge itself (TOTP or backup code). */
  private codeless(factor: FactorInput, challenge: Challenge | null): boolean {
    if (factor.backupCode !== undefined || factor.tfaMethod === 'totp') return true;
    return (
      factor.tfaMethod === undefined &&
      factor.tfaMethodId !== undefined &&
      challenge?.channel === null
    );
  }
}
