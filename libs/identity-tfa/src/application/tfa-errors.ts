import { DomainError, ErrorDetails } from '@app/platform';
import { TfaError, TfaErrorCode } from '../domain/errors';
import { lockEndSeconds } from '../domain/tfa-method';

/**
 * The spec's 2FA error codes. Statuses live in domain/errors.ts; these helpers keep
 * the messages and extra body fields consistent wherever a code is raised.
 */
export const tfaError = (code: TfaErrorCode, msg: string, details?: ErrorDetails) =>
  new TfaError(code, msg, details);

export function lockedError(failCount: number, lockedUntilMs: number): DomainError {
  const seconds = lockEndSeconds(lockedUntilMs);
  return new TfaError(
    'tfa_locked',
    'Too many failed attempts: this 2FA method is locked for 15 minutes.',
    { fail_count: failCount, locked_until: seconds },
  );
}

export function verificationFailed(
  method: { failCount: number; lockedUntilMs: number | null } | null,
  msg = 'Invalid verification code.',
): DomainError {
  return new TfaError(
    '2fa_verification_failed',
    msg,
    method
      ? {
          fail_count: method.failCount,
          locked_until: lockEndSeconds(method.lockedUntilMs),
        }
      : {},
  );
}
