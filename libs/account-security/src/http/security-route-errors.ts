import { errorResponsesOf } from '@app/platform';
import { ACCOUNT_SECURITY_ERRORS, AccountSecurityErrorCode } from '../domain/errors';
import { SecurityErrorResponseDto } from './dto/security-error.response.dto';

/** Documents an account-security route's failures from the codes it can raise. */
export const ApiSecurityErrors = errorResponsesOf(
  ACCOUNT_SECURITY_ERRORS,
  SecurityErrorResponseDto,
);

type Codes = readonly AccountSecurityErrorCode[];

/** Bearer-only routes: the auth guard, then the personal-context guard. */
const BEARER_AUTH: Codes = [
  'auth_missing',
  'auth_invalid_key',
  'auth_session_expired',
  'team_user_forbidden',
];

export const SECURITY_ROUTE_ERRORS = {
  /** A malformed limit, or a next_token altered or made for another user. */
  securityEvents: [...BEARER_AUTH, 'bad_request', 'invalid_token'],
  trustedDevices: [...BEARER_AUTH],
  /** A malformed id; not_found for every id that is not an active device of the caller. */
  revokeTrustedDevice: [...BEARER_AUTH, 'bad_request', 'not_found'],
} satisfies Record<string, Codes>;
