import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const BILLING_ERRORS = defineErrors({
  // The spec's body for a missing day range has no `error` field.
  charges_day_range_required: { status: 400, wireCode: null },
  invalid_token: { status: 400 },
});

export type BillingErrorCode = keyof typeof BILLING_ERRORS | PlatformErrorCode;

/** The billing context's one error class: `throw new BillingError(code, message, details?)`. */
export class BillingError extends DomainError<BillingErrorCode> {}
