import { RouteAccess } from '../../domain/access/permission-category';
import { Principal } from '../../domain/principal';

/** A request the audit log records: who, from where, which route, with what. */
export interface AuditedRequest {
  readonly principal: Principal;
  readonly address: string | null;
  readonly method: string;
  readonly access: RouteAccess;
  readonly params: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
}

/** A request's entry, ready to write in one of two ways. */
export interface PreparedAuditEntry {
  /** Inside the caller's unit of work: it commits with the change, or not at all. */
  inTransaction(): Promise<void>;
  /** On its own, durably, within a bounded wait (never rejects). */
  alone(): Promise<void>;
}

/**
 * The audit log of writes and exports (docs/access.md "Audit log"), as the access guard
 * uses it; implemented by the audit-log context. The guard prepares an entry from what the
 * request looked like when it arrived (a handler may change its body).
 */
export abstract class RequestAuditor {
  abstract prepare(request: AuditedRequest): PreparedAuditEntry;
}
