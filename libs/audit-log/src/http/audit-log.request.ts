import { AUDIT_LOG_POLICY } from '../domain/audit-entry';
import { AuditLogError } from '../domain/errors';

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new AuditLogError('bad_request', `${name} must be given once, as a string`);
  return value;
}

/**
 * GET audit_logs/: `limit` (an integer of at least 1, default 100, served at most 500) and
 * `after_token` (the X-Next-Token of the previous page).
 */
export function parseAuditLogQuery(query: Record<string, unknown>): {
  limit: number;
  afterToken: string | null;
} {
  const rawLimit = single(query, 'limit');
  let limit: number = AUDIT_LOG_POLICY.defaultPageSize;
  if (rawLimit !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLimit) || Number(rawLimit) < 1)
      throw new AuditLogError('bad_request', 'limit must be an integer of at least 1');
    limit = Math.min(Number(rawLimit), AUDIT_LOG_POLICY.maxPageSize);
  }
  const token = single(query, 'after_token');
  return { limit, afterToken: token === undefined || token === '' ? null : token };
}
