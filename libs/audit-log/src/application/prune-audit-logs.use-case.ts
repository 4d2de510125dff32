import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { AUDIT_LOG_POLICY } from '../domain/audit-entry';
import { AuditLogSettings } from '../domain/audit-log-settings';
import { AuditLogRepository } from './ports/audit-log.repository.port';

export interface PrunedEntries {
  pruned: number;
  /** Entries made before this instant were deleted. */
  before: Date;
}

/**
 * `manage audit:prune [--older-than-days N]`: deletes the entries older than the retention
 * (AUDIT_LOG_RETENTION_DAYS by default), a batch per transaction so no lock is held long.
 */
@Injectable()
export class PruneAuditLogsUseCase {
  constructor(
    private readonly entries: AuditLogRepository,
    private readonly uow: UnitOfWork,
    private readonly settings: AuditLogSettings,
    private readonly clock: Clock,
  ) {}

  async execute(olderThanDays?: number): Promise<PrunedEntries> {
    const days = olderThanDays ?? this.settings.retentionDays;
    const before = new Date(this.clock.nowMs() - days * 24 * 3600 * 1000);
    let pruned = 0;
    for (;;) {
      const deleted = await this.uow.run(() =>
        this.entries.pruneBatch(before, AUDIT_LOG_POLICY.pruneBatchSize),
      );
      pruned += deleted;
      if (deleted < AUDIT_LOG_POLICY.pruneBatchSize) return { pruned, before };
    }
  }
}
