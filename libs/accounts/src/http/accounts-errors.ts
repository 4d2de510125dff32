import { ErrorTable } from '@app/platform';

export const ACCOUNTS_ERRORS: ErrorTable = {
  login_failed: { status: 401 },
  login_throttled: { status: 429 },
};
