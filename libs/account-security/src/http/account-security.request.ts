import { SECURITY_EVENT_POLICY } from '../domain/security-event';
import { AccountSecurityError } from '../domain/errors';

/** The query string as Express hands it over: a parameter given twice is an array. */
export type RawQuery = Record<string, unknown>;

export interface SecurityEventsQuery {
  limit: number;
  afterToken: string | null;
}

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new AccountSecurityError('bad_request', `${name} must be given once, as a string`);
  return value;
}

/**
 * GET tfa/events/: `limit` (an integer of at least 1, default 50, served at most 500,
 * like the charges report's) and `after_token` (the previous page's next_token).
 */
export function parseSecurityEventsQuery(query: RawQuery): SecurityEventsQuery {
  const rawLimit = single(query, 'limit');
  let limit: number = SECURITY_EVENT_POLICY.defaultPageSize;
  if (rawLimit !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLimit) || Number(rawLimit) < 1)
      throw new AccountSecurityError('bad_request', 'limit must be an integer of at least 1');
    limit = Math.min(Number(rawLimit), SECURITY_EVENT_POLICY.maxPageSize);
  }
  const rawToken = single(query, 'after_token');
  return { limit, afterToken: rawToken === undefined || rawToken === '' ? null : rawToken };
}

/** The id of DELETE tfa/devices/{id}/: a positive integer. */
export function parseDeviceId(raw: string): number {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2_147_483_647)
    throw new AccountSecurityError('bad_request', 'Invalid request: id must be a positive integer');
  return Number(raw);
}
