import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

/**
 * The account-security error codes (docs/identity-tfa.md "Security events", "Trusted
 * devices") with their HTTP status; bad_request, not_found and the authentication codes are
 * the platform's. The routes answer as they did under the 2FA context, so the codes and
 * statuses are the ones the 2FA table gives them.
 */
export const ACCOUNT_SECURITY_ERRORS = defineErrors({
  // Account security is personal, as 2FA is: a team-scoped credential may not read it.
  team_user_forbidden: { status: 403 },
  // GET tfa/events/: a next_token that was altered or made for another user.
  invalid_token: { status: 400 },
});

export type AccountSecurityErrorCode = keyof typeof ACCOUNT_SECURITY_ERRORS | PlatformErrorCode;

/** The account-security context's one error class: `throw new AccountSecurityError(code, message)`. */
export class AccountSecurityError extends DomainError<AccountSecurityErrorCode> {}
