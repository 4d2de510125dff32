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
  'api_key_created',
  'api_key_deleted',
  'api_key_reset',
  'team_changed',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** The factor an event is about; never the code or secret itself. */
export const SECURITY_EVENT_METHODS = ['sms', 'totp', 'email', 'backup_code'] as const;
export type SecurityEventMethod = (typeof SECURITY_EVENT_METHODS)[number];

/** Non-secret facts about an event: counts, causes, ids, the names of changed fields. */
export type SecurityEventDetail = string | number | boolean | null | readonly string[];
export type SecurityEventDetails = Readonly<Record<string, SecurityEventDetail>>;

/** Why sessions ended (details.cause of session_revoked); `user`: DELETE auth/sessions/. */
export type SessionEndCause = 'logout' | 'user' | 'tfa_change' | 'operator';

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
 * device is one (a password alone then logs in from it), and so is every change to an API
 * key; a login, an update of a label or the primary flag, and revocations of sessions or
 * devices (which only strengthen it) are not.
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
  // A new key is a new way in; a deleted or rotated one may break the user's scripts.
  'api_key_created',
  'api_key_deleted',
  'api_key_reset',
  // Joining, leaving, a new role: what the member may do, and where, changed.
  'team_changed',
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

/**
 * Characters a reason may not hold: control characters (ESC recolours a terminal, a line
 * break forges a line of output) and the bidirectional-text controls that reorder what is
 * shown. The reason is shown to the user (GET /tfa/events/) and to operators.
 */
const UNSHOWABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** The reason of an admin reset, or the problem with it (null: fine). */
export function resetReasonProblem(reason: unknown): string | null {
  if (typeof reason !== 'string' || reason.trim().length === 0)
    return `--reason is required: say why 2FA is reset (1 to ${SECURITY_EVENT_POLICY.reasonMaxLength} characters)`;
  if ([...reason].length > SECURITY_EVENT_POLICY.reasonMaxLength)
    return `--reason must be at most ${SECURITY_EVENT_POLICY.reasonMaxLength} characters`;
  const unshowable = UNSHOWABLE.exec(reason);
  if (unshowable)
    return `--reason must be one line of printable text (it holds U+${unshowable[0]
      .codePointAt(0)!
      .toString(16)
      .toUpperCase()
      .padStart(4, '0')}, a control character)`;
  return null;
}
