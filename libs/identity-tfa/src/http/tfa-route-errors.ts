import { SecurityErrorResponseDto } from '@app/account-security';
import { errorResponsesOf } from '@app/platform';
import { TFA_ERRORS, TfaErrorCode } from '../domain/errors';

/*
 * The error codes each 2FA route can raise (docs/identity-tfa.md, the error codes), grouped by the step
 * that raises them, for its OpenAPI responses. Statuses and wire codes come from the one
 * table, domain/errors.ts (and the platform's); a code outside it fails to compile.
 */

/**
 * Documents a 2FA route's failures from the codes it can raise (see errorResponsesOf). Their
 * body is account security's lockout envelope (schema `TfaErrorResponseDto`): one class
 * for the routes of both contexts, so the document names one schema.
 */
export const ApiTfaErrors = errorResponsesOf(TFA_ERRORS, SecurityErrorResponseDto);

type Codes = readonly TfaErrorCode[];

/** Bearer-only routes: the auth guard, then the personal-context guard. */
const BEARER_AUTH: Codes = [
  'auth_missing',
  'auth_invalid_key',
  'auth_session_expired',
  'team_user_forbidden',
];

/** The tfa_secret of a send-code or login step names a challenge that must still be open. */
const CHALLENGE: Codes = ['challenge_not_found', 'no_challenge_found', '2fa_expired'];

/** Routes that take a Bearer token or, logged out, a tfa_secret alone. */
const SECRET_OR_BEARER_AUTH: Codes = [
  'missing_auth_value',
  'auth_invalid_key',
  'auth_session_expired',
  'team_user_forbidden',
  ...CHALLENGE,
];

/** Body validation (missing or mistyped fields, malformed JSON). */
const INVALID_BODY: Codes = ['bad_request'];

/** A code of a method or of an email challenge, or a backup code (SecondFactorVerifier). */
const SECOND_FACTOR: Codes = [
  'bad_request',
  'not_found',
  'invalid_tfa_method',
  'missing_code',
  'missing_params',
  ...CHALLENGE,
  'phone_number_mismatch',
  '2fa_verification_failed',
  'tfa_method_not_configured',
  'invalid_backup_code',
  'tfa_locked',
];

/** The anti-fraud policy every SMS passes before it is queued. */
const SMS_POLICY: Codes = [
  'bad_request',
  'sms_fraud_detected',
  'sms_blocked_number',
  'preauth_phone_cap',
  'sms_rate_limited',
  'tfa_challenge_exists',
];

/** Choosing the number (domain/sms-sending.ts), then the policy. */
const SMS_SENDING: Codes = [
  'email_not_verified',
  'not_found',
  'invalid_tfa_method',
  'phone_number_mismatch',
  'missing_phone_number',
  ...SMS_POLICY,
];

/** The 30-minute add-method window lives in a store that fails closed. */
const ADD_METHOD_WINDOW: Codes = ['service_unavailable'];

const CONFIRM_NEW_METHOD: Codes = [
  ...BEARER_AUTH,
  ...INVALID_BODY,
  'missing_code',
  'invalid_tfa_method',
  'authorization_required',
  ...ADD_METHOD_WINDOW,
  'duplicate_tfa_method',
  '2fa_verification_failed',
  // The code of a new SMS number counts against the SMS channel.
  'tfa_locked',
  'missing_phone_number',
  ...CHALLENGE,
  'phone_number_mismatch',
];

export const TFA_ROUTE_ERRORS = {
  status: [...BEARER_AUTH, ...ADD_METHOD_WINDOW],
  login: [...SECRET_OR_BEARER_AUTH, ...INVALID_BODY, ...SECOND_FACTOR, '2fa_login_failed'],
  removeMethod: [...BEARER_AUTH, ...INVALID_BODY, ...SECOND_FACTOR],
  sendEmail: [
    ...SECRET_OR_BEARER_AUTH,
    ...INVALID_BODY,
    'missing_email',
    'email_not_verified',
    // The per-challenge send cap, whatever the channel.
    'sms_rate_limited',
  ],
  sendSms: [...SECRET_OR_BEARER_AUTH, ...INVALID_BODY, ...SMS_SENDING],
  resendSms: [...SECRET_OR_BEARER_AUTH, ...INVALID_BODY, ...SMS_SENDING],
  totpSetup: [...BEARER_AUTH],
  startAuthorization: [
    ...BEARER_AUTH,
    ...INVALID_BODY,
    'not_found',
    'invalid_tfa_method',
    'invalid_backup_code',
    'missing_email',
    'email_not_verified',
    ...SMS_POLICY,
    'challenge_creation_failed',
    ...ADD_METHOD_WINDOW,
  ],
  confirmAuthorization: [
    ...BEARER_AUTH,
    ...INVALID_BODY,
    'missing_code',
    'missing_params',
    'no_pending_authorization',
    '2fa_expired',
    'no_challenge_found',
    '2fa_verification_failed',
    'tfa_method_not_configured',
    'tfa_locked',
    ...ADD_METHOD_WINDOW,
  ],
  confirmNewMethod: CONFIRM_NEW_METHOD,
  /** The deprecated test-submit: legacy accounts must migrate (regen-backup-codes) first. */
  confirmNewMethodRejectingLegacy: [...CONFIRM_NEW_METHOD, 'untracked_2fa_found'],
  updateMethod: [...BEARER_AUTH, ...INVALID_BODY, 'invalid_tfa_method', 'not_found'],
  regenerateBackupCodes: [
    ...BEARER_AUTH,
    ...INVALID_BODY,
    ...SECOND_FACTOR,
    'missing_phone_number',
  ],
} satisfies Record<string, Codes>;
