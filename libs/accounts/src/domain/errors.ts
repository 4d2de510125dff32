import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const ACCOUNTS_ERRORS = defineErrors({
  login_failed: { status: 401 },
  login_throttled: { status: 429 },
  team_context_required: { status: 403 },
  personal_context_required: { status: 403 },
  team_owner_required: { status: 403 },
  team_tfa_required: { status: 403 },
  team_not_found: { status: 404, wireCode: 'not_found' },
  team_member_not_found: { status: 404, wireCode: 'not_found' },
  team_role_not_found: { status: 404, wireCode: 'not_found' },
  team_invitation_not_found: { status: 404, wireCode: 'not_found' },
  team_role_exists: { status: 409 },
  team_role_in_use: { status: 409 },
  team_role_default: { status: 400 },
  team_last_owner: { status: 409 },
  team_not_empty: { status: 409 },
  team_member_exists: { status: 409 },
  insufficient_credit: { status: 400 },
});

export type AccountsErrorCode = keyof typeof ACCOUNTS_ERRORS | PlatformErrorCode;

/** The accounts context's one error class: `throw new AccountsError(code, message, details?)`. */
export class AccountsError extends DomainError<AccountsErrorCode> {}
