import { AuditLogRepository } from '../application/ports/audit-log.repository.port';
import { AuditEntry, NewAuditEntry } from '../domain/audit-entry';

/** The audit log in memory, held to PostgresAuditLogRepository's answers by the contract. */
export class InMemoryAuditLogRepository extends AuditLogRepository {
  readonly rows: AuditEntry[] = [];
  /** Each appendMany call's size, in order. */
  readonly batches: number[] = [];
  /** Calls that fail before writing, next first. */
  failures = 0;
  /** When set, appendMany waits for it before writing. */
  gate: Promise<void> | null = null;
  private sequence = 1_000_000;

  async append(entry: NewAuditEntry): Promise<void> {
    this.rows.push({ ...entry, id: this.sequence++ });
  }

  async appendMany(entries: readonly NewAuditEntry[]): Promise<void> {
    if (this.gate) await this.gate;
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('database unavailable');
    }
    this.batches.push(entries.length);
    for (const entry of entries) this.rows.push({ ...entry, id: this.sequence++ });
  }

  async listPage(
    userId: number,
    teamId: number | null,
    limit: number,
    beforeId: number | null,
  ): Promise<AuditEntry[]> {
    return this.rows
      .filter(
        (row) =>
          row.userId === userId &&
          row.teamId === teamId &&
          (beforeId === null || row.id < beforeId),
      )
      .sort((a, b) => b.id - a.id)
      .slice(0, limit);
  }

  async pruneBatch(before: Date, batch: number): Promise<number> {
    const doomed = this.rows
      .filter((row) => row.occurredAt.getTime() < before.getTime())
      .sort((a, b) => a.id - b.id)
      .slice(0, batch);
    for (const row of doomed) this.rows.splice(this.rows.indexOf(row), 1);
    return doomed.length;
  }
}
