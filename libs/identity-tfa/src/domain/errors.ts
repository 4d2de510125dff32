import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

/** Every 2FA error code (docs/identity-tfa.md) with its HTTP status (bad_request, not_found, auth_error: platform). */
export const TFA_ERRORS = defineErrors({
  team_user_forbidden: { status: 403 },
  invalid_tfa_method: { status: 400 },
  // A missing code or backup_code; the 401 missing_auth_value is the auth guard's.
  missing_code: { status: 400, wireCode: 'missing_auth_value' },
  missing_params: { status: 400 },
  email_not_verified: { status: 400 },
  '2fa_expired': { status: 400 },
  challenge_not_found: { status: 400 },
  no_challenge_found: { status: 400 },
  tfa_challenge_exists: { status: 400 },
  authorization_required: { status: 403 },
  no_pending_authorization: { status: 400 },
  invalid_backup_code: { status: 401 },
  untracked_2fa_found: { status: 400 },
  duplicate_tfa_method: { status: 400 },
  twilio_error: { status: 400 },
  preauth_phone_cap: { status: 429 },
  sms_rate_limited: { status: 429 },
  tfa_locked: { status: 429 },
  phone_number_mismatch: { status: 400 },
  '2fa_login_failed': { status: 400 },
  '2fa_verification_failed': { status: 400 },
  missing_email: { status: 400 },
  missing_phone_number: { status: 400 },
  tfa_method_not_configured: { status: 400 },
  challenge_creation_failed: { status: 500 },
  sms_blocked_number: { status: 400 },
  sms_fraud_detected: { status: 403 },
  twilio_rate_limited: { status: 429 },
});

export type TfaErrorCode = keyof typeof TFA_ERRORS | PlatformErrorCode;

/** The identity-tfa context's one error class: `throw new TfaError(code, message, details?)`. */
export class TfaError extends DomainError<TfaErrorCode> {}
