import { Injectable } from '@nestjs/common';
import { CredentialIssuer, sessionOriginOf, User } from '@app/accounts';
import { RequestOrigin } from '@app/platform';
import { Challenge } from '../../domain/challenge';
import { TfaError } from '../../domain/errors';
import { DeviceTrust, IssuedDevice, SecurityEventLog } from '@app/account-security';
import {
  FactorInput,
  SecondFactorVerifier,
  Verified,
} from '../verification/second-factor-verifier.service';
import { TfaUserLookup } from './tfa-user-lookup.service';

export interface CompleteLoginCommand {
  /** The Bearer caller (command-line flow); undefined in the logged-out flow. */
  userId?: number;
  factor: FactorInput;
  admin: boolean;
  /** Logged out only: remember this device, so a later password login skips the factor. */
  rememberDevice?: boolean;
  origin: RequestOrigin;
}

export interface CompletedLogin {
  user: User;
  sessionKey: string;
  expiresAt: Date;
  /** Set only when a backup code was used and unused codes remain. */
  backupCodesRemaining?: number;
  legacy: boolean;
  /** The device remembered at the client's request (its token goes into a cookie). */
  trustedDevice?: IssuedDevice;
}

/**
 * POST /tfa/: the second factor, then a session (admin only for admin users), the login
 * event and, when asked for on a logged-out login, a trusted device.
 */
@Injectable()
export class CompleteLoginUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly verifier: SecondFactorVerifier,
    private readonly issuer: CredentialIssuer,
    private readonly events: SecurityEventLog,
    private readonly devices: DeviceTrust,
  ) {}

  async execute(command: CompleteLoginCommand): Promise<CompletedLogin> {
    // Refused before any code is compared: a Bearer caller (an API key or a session) is a
    // script or the command line, never a browser to remember.
    if (command.rememberDevice && command.userId !== undefined)
      throw new TfaError(
        'bad_request',
        'Invalid request: remember_device is only for the logged-out login (a tfa_secret without a Bearer token)',
      );
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
    const alsoSpend =
      viaSecretOnly && this.leavesChallengeUnspent(command.factor, challenge) ? challenge : null;
    // The session, its event and the trusted device are made in the transaction that
    // spends the factor: a code is never spent without them, nor they made without it.
    const options = {
      purposes: ['login' as const, 'verify' as const],
      failure: '2fa_login_failed' as const,
      alsoSpend,
      origin: command.origin,
    };
    const { verified, result } = await this.verifier.verifyAndThen(
      user,
      command.factor,
      options,
      async (verified) => {
        const session = await this.issuer.issueSession(user.id, {
          isAdmin: command.admin && user.isAdmin,
          origin: sessionOriginOf(command.origin),
        });
        await this.events.record({
          userId: user.id,
          kind: 'login',
          method: methodOf(verified),
          details: { trusted_device: false },
          origin: command.origin,
        });
        const trustedDevice = command.rememberDevice
          ? await this.devices.trust(user.id, command.origin)
          : undefined;
        return { ...session, trustedDevice };
      },
    );
    return {
      user,
      sessionKey: result.sessionKey,
      expiresAt: result.expiresAt,
      ...(verified.kind === 'backup_code' && verified.remaining > 0
        ? { backupCodesRemaining: verified.remaining }
        : {}),
      legacy: user.tfaStatus === 'legacy',
      ...(result.trustedDevice ? { trustedDevice: result.trustedDevice } : {}),
    };
  }

  /** True when the factor will not consume the challenge itself (TOTP or backup code). */
  private leavesChallengeUnspent(factor: FactorInput, challenge: Challenge | null): boolean {
    if (factor.backupCode !== undefined || factor.tfaMethod === 'totp') return true;
    return (
      factor.tfaMethod === undefined &&
      factor.tfaMethodId !== undefined &&
      challenge?.channel === null
    );
  }
}

/** The factor a verification used, as events name it. */
function methodOf(verified: Verified): 'sms' | 'totp' | 'email' | 'backup_code' {
  return verified.kind === 'backup_code' ? 'backup_code' : verified.channel;
}
