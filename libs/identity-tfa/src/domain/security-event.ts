import type { RequestOrigin } from '@app/platform';

/**
 * The user's security history (docs/identity-tfa.md "Security events"): one append-only
 * record per change to their protection, written in the transaction of the change.
 */
export const SECURITY_EVENT_KINDS = [
  'tfa_enabled',
  'tfa_disabled',
  'method_added',
  'method_removed',
  'method_updated',
  'backup_codes_regenerated',
  'backup_code_used',
  'method_locked',
  'login',
  'session_revoked',
  'admin_reset',
  'device_trusted',
  'device_revoked',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** The factor an event is about; never the code or secret itself. */
export const SECURITY_EVENT_METHODS = ['sms', 'totp', 'email', 'backup_code'] as const;
export type SecurityEventMethod = (typeof SECURITY_EVENT_METHODS)[number];

/** Non-secret facts about an event: counts, causes, ids, the names of changed fields. */
export type SecurityEventDetail = string | number | boolean | null | readonly string[];
export type SecurityEventDetails = Readonly<Record<string, SecurityEventDetail>>;

/** Why sessions ended (details.cause of session_revoked). */
export type SessionEndCause = 'logout' | 'tfa_change' | 'operator';

/** Why trusted devices were revoked (details.cause of device_revoked). */
export type DeviceRevocationCause = 'user' | 'tfa_change' | 'operator' | 'limit';

export interface NewSecurityEvent {
  userId: number;
  kind: SecurityEventKind;
  method: SecurityEventMethod | null;
  details: SecurityEventDetails;
  origin: RequestOrigin;
  occurredAt: Date;
}

export interface SecurityEvent extends NewSecurityEvent {
  id: number;
}

/**
 * The kinds that email the user: each weakens or alters their protection. Trusting a
 * device is one (a password alone then logs in from it); a login, an update of a label or
 * the primary flag, and revocations (which only strengthen it) are not.
 */
export const NOTIFIED_KINDS: ReadonlySet<SecurityEventKind> = new Set<SecurityEventKind>([
  'method_added',
  'method_removed',
  'tfa_disabled',
  'backup_codes_regenerated',
  'backup_code_used',
  'method_locked',
  'admin_reset',
  'device_trusted',
]);

export const SECURITY_EVENT_POLICY = {
  /** GET tfa/events/ without `limit`. */
  defaultPageSize: 50,
  /** A larger `limit` is served as this many, like the charges report. */
  maxPageSize: 500,
  /** Rows the prune deletes per transaction, so it never holds a long lock. */
  pruneBatchSize: 1000,
  /** The admin reset's reason. */
  reasonMaxLength: 500,
  /** Notices the sweeper re-queues per pass. */
  sweepBatchSize: 100,
} as const;

/** The signed payload of a next_token: whose walk it is (u) and the last id served (i). */
interface EventCursorPayload {
  u: number;
  i: number;
}

export function eventCursorPayload(userId: number, lastId: number): string {
  return JSON.stringify({ u: userId, i: lastId } satisfies EventCursorPayload);
}

/**
 * The id a verified cursor payload continues after, or null when it is not one or was
 * made for another user (a token is only valid for the walk it was made for).
 */
export function eventCursorAfter(payload: string, userId: number): number | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { u, i } = parsed as Partial<Record<keyof EventCursorPayload, unknown>>;
  if (u !== userId || typeof i !== 'number' || !Number.isSafeInteger(i) || i < 1) return null;
  return i;
}

/** The reason of an admin reset, or the problem with it (null: fine). */
export function resetReasonProblem(reason: unknown): string | null {
  if (typeof reason !== 'string' || reason.trim().length === 0)
    return `--reason is required: say why 2FA is reset (1 to ${SECURITY_EVENT_POLICY.reasonMaxLength} characters)`;
  if ([...reason].length > SECURITY_EVENT_POLICY.reasonMaxLength)
    return `--reason must be at most ${SECURITY_EVENT_POLICY.reasonMaxLength} characters`;
  return null;
}
