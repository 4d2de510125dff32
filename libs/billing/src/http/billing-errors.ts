import { ErrorTable } from '@app/platform';
import { BILLING_ERROR_CODES } from '../application/billing-error-codes';

export const BILLING_ERRORS: ErrorTable = {
  // The spec's body for a missing day range has no `error` field.
  [BILLING_ERROR_CODES.dayRangeRequired]: { status: 400, wireCode: null },
  [BILLING_ERROR_CODES.invalidToken]: { status: 400 },
};
