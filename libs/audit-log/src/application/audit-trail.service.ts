import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { AUDIT_LOG_POLICY, NewAuditEntry } from '../domain/audit-entry';
import { AuditLogSettings } from '../domain/audit-log-settings';
import { AuditLogRepository } from './ports/audit-log.repository.port';

interface Pending {
  entry: NewAuditEntry;
  written: () => void;
}

/** Between two attempts while the database refuses the entries. */
const RETRY_MS = 1_000;

/**
 * Appends audit entries by group commit (docs/access.md "Audit log"): a request hands its
 * entry over and waits until it is written, so once it is answered its entry survives a
 * crash. One INSERT is in flight at a time and carries every entry that arrived while the
 * previous one ran: under load a request waits for at most two INSERTs, never for one per
 * request. The wait is bounded (AUDIT_LOG_APPEND_WAIT_MS): past it the request is answered
 * anyway and its entry stays queued until the database takes it (logged; only then can a
 * crash lose it).
 */
@Injectable()
export class AuditTrail implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditLog');
  private readonly queue: Pending[] = [];
  private writing: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly repository: AuditLogRepository,
    private readonly settings: AuditLogSettings,
  ) {}

  /** Resolves once the entry is written, or after the bounded wait; never rejects. */
  append(entry: NewAuditEntry): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.logger.warn(
          `audit entry not written within ${this.settings.appendWaitMs} ms; answered anyway, still queued`,
        );
        resolve();
      }, this.settings.appendWaitMs);
      timer.unref();
      if (this.queue.length >= AUDIT_LOG_POLICY.maxPending) {
        this.logger.error('audit log queue full: the oldest waiting entry is dropped');
        this.queue.shift()?.written();
      }
      this.queue.push({
        entry,
        written: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      this.writing ??= this.drain();
    });
  }

  /** Entries handed over and not yet written. */
  get pending(): number {
    return this.queue.length;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.slice(0, AUDIT_LOG_POLICY.appendBatchSize);
        try {
          await this.repository.appendMany(batch.map((pending) => pending.entry));
        } catch (error) {
          this.logger.error(`audit entries not written (retrying): ${(error as Error).message}`);
          if (this.stopping) return;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
          continue;
        }
        this.queue.splice(0, batch.length);
        for (const pending of batch) pending.written();
      }
    } finally {
      this.writing = null;
    }
  }

  /** On shutdown, what is queued is written once more (a failure is logged). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.writing;
    if (this.queue.length > 0) await (this.writing = this.drain());
  }
}
