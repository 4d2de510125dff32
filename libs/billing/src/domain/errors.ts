import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const BILLING_ERRORS = defineErrors({
  // The public client's body for a missing day range has no `error` field (docs/billing.md).
  charges_day_range_required: { status: 400, wireCode: null },
  invalid_token: { status: 400 },
});

export type BillingErrorCode = keyof typeof BILLING_ERRORS | PlatformErrorCode;

/** The billing context's one error class: `throw new BillingError(code, message, details?)`. */
export class BillingError extends DomainError<BillingErrorCode> {}

/** `charges_day_range_required`, in the words the public client shows (report, export, statement). */
export const DAY_RANGE_REQUIRED_MSG =
  "Must provide both 'day' gte and lte filters for instance charges";

/** `invalid_token`: one message whatever was wrong with the token, so it reveals nothing. */
export const INVALID_TOKEN_MSG = 'Invalid pagination token';
