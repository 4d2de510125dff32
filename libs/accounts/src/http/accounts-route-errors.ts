import { errorResponsesOf } from '@app/platform';
import { ACCOUNTS_ERRORS } from '../domain/errors';

/** Documents an accounts route's failures from the codes it can raise (errorResponsesOf). */
export const ApiAccountsErrors = errorResponsesOf(ACCOUNTS_ERRORS);
