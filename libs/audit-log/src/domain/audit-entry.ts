/**
 * The audit log (docs/access.md "Audit log"): one row per write made with a key or a
 * session, and per export, with where it came from, which credential made it, the route
 * and its arguments, secrets, codes and passwords removed.
 */
export interface NewAuditEntry {
  userId: number;
  /** The team of a team-context key; null in the personal context. */
  teamId: number | null;
  credentialKind: 'api_key' | 'session';
  credentialId: number;
  /** The client address (request.ip, behind the trusted proxies). */
  address: string | null;
  method: string;
  /** The route's path template, `/api/v0/endptjobs/{id}/`. */
  route: string;
  /** Its permission name, `api.endptjobs.update`. */
  routeName: string;
  /** Path, query and body parameters, cleaned by `auditArgs`. */
  args: AuditArgs;
  occurredAt: Date;
}

export interface AuditEntry extends NewAuditEntry {
  id: number;
}

export type AuditArgs = Record<string, unknown>;

export const AUDIT_LOG_POLICY = {
  /** GET audit_logs/ without `limit`. */
  defaultPageSize: 100,
  /** A larger `limit` is served as this many. */
  maxPageSize: 500,
  /** Rows the prune deletes per transaction, so it never holds a long lock. */
  pruneBatchSize: 1000,
  /** Rows one append writes at most. */
  appendBatchSize: 500,
  /** Entries waiting to be written at most, while the database does not answer. */
  maxPending: 10_000,
  /** The recorded arguments, as JSON, at most: a bigger body keeps its short top-level values. */
  argsMaxChars: 4096,
  /** A recorded string argument at most. */
  argValueMaxChars: 256,
} as const;

/** What a removed value is recorded as. */
export const REMOVED = '[removed]';

/**
 * Parameter names whose values are never recorded: passwords, secrets, tokens, codes and
 * keys (`api_key`, `session_key`, `key`), and phone numbers (personal, as the security
 * events keep them out too). Matched on the name's words, so `key_params` and `key_id`
 * stay while `new_api_key` goes.
 */
const SECRET_WORDS = /(^|_)(password|passwd|passphrase|secret|token|code|codes|otp|phone)(_|$)/;
const SECRET_ENDING = /(^|_)(api_?key|session_?key|key)$/;
/** Values that are credentials of ours, whatever their name: keys, sessions, devices. */
const CREDENTIAL_VALUE = /^gm[ksd]_[0-9A-Za-z]{16,}$/;

export function isSecretName(name: string): boolean {
  const normal = name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  return SECRET_WORDS.test(normal) || SECRET_ENDING.test(normal);
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (CREDENTIAL_VALUE.test(value)) return REMOVED;
    return value.length > AUDIT_LOG_POLICY.argValueMaxChars
      ? `${value.slice(0, AUDIT_LOG_POLICY.argValueMaxChars)}...`
      : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[nested]';
  if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1));
  const cleaned: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>))
    cleaned[name] = isSecretName(name) ? REMOVED : clean(item, depth + 1);
  return cleaned;
}

/**
 * The arguments of a request as the log keeps them: body, query and path parameters in
 * one object (the path's value wins a clash), every secret removed at any depth, long
 * strings cut, and a whole that stays under AUDIT_LOG_POLICY.argsMaxChars (past it, the
 * scalar top-level values are kept and `_truncated` says so).
 */
export function auditArgs(
  path: Record<string, unknown> | undefined,
  query: Record<string, unknown> | undefined,
  body: unknown,
): AuditArgs {
  const merged: Record<string, unknown> = {
    ...(typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {}),
    ...(query ?? {}),
    ...(path ?? {}),
  };
  const cleaned = clean(merged, 0) as AuditArgs;
  if (JSON.stringify(cleaned).length <= AUDIT_LOG_POLICY.argsMaxChars) return cleaned;
  const kept: AuditArgs = { _truncated: true };
  for (const [name, value] of Object.entries(cleaned)) {
    if (value !== null && typeof value === 'object') continue;
    kept[name] = value;
    if (JSON.stringify(kept).length > AUDIT_LOG_POLICY.argsMaxChars) {
      delete kept[name];
      break;
    }
  }
  return kept;
}
