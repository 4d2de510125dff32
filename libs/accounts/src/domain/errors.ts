import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const ACCOUNTS_ERRORS = defineErrors({
  login_failed: { status: 401 },
  login_throttled: { status: 429 },
});

export type AccountsErrorCode = keyof typeof ACCOUNTS_ERRORS | PlatformErrorCode;

/** The accounts context's one error class: `throw new AccountsError(code, message, details?)`. */
export class AccountsError extends DomainError<AccountsErrorCode> {}
