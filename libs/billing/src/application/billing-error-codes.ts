/** The billing context's error codes; http/billing-errors.ts maps each to its status and body. */
export const BILLING_ERROR_CODES = {
  /** 400 without an `error` field: the body the spec shows for a missing day range. */
  dayRangeRequired: 'charges_day_range_required',
  badRequest: 'bad_request',
  invalidToken: 'invalid_token',
} as const;

export const INVALID_TOKEN_MSG = 'Invalid pagination token';
