import { AuditEntry, NewAuditEntry } from '../../domain/audit-entry';

export abstract class AuditLogRepository {
  /**
   * Writes one entry in the caller's unit of work (a prepared statement: it is one more
   * statement of nearly every write's transaction).
   */
  abstract append(entry: NewAuditEntry): Promise<void>;
  /** Writes the entries in one statement, in order (ids grow with it). */
  abstract appendMany(entries: readonly NewAuditEntry[]): Promise<void>;
  /** The user's entries of one context, newest first, with ids below `beforeId` if given. */
  abstract listPage(
    userId: number,
    teamId: number | null,
    limit: number,
    beforeId: number | null,
  ): Promise<AuditEntry[]>;
  /** Deletes up to `batch` entries made before `before`; how many. */
  abstract pruneBatch(before: Date, batch: number): Promise<number>;
}
