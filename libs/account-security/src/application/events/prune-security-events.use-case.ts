import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { SECURITY_EVENT_POLICY } from '../../domain/security-event';
import { AccountSecuritySettings } from '../../domain/account-security-settings';
import { SecurityEventRepository } from '../ports/security-event.repository.port';

export interface PrunedEvents {
  pruned: number;
  /** Events made before this instant were deleted. */
  before: Date;
}

/**
 * `manage tfa:prune-events [--older-than-days N]`: deletes the events older than the
 * retention (TFA_SECURITY_EVENT_RETENTION_DAYS by default), a batch per transaction so no
 * lock is held for long; the only deletion the table permits.
 */
@Injectable()
export class PruneSecurityEventsUseCase {
  constructor(
    private readonly events: SecurityEventRepository,
    private readonly uow: UnitOfWork,
    private readonly settings: AccountSecuritySettings,
    private readonly clock: Clock,
  ) {}

  async execute(olderThanDays?: number): Promise<PrunedEvents> {
    const days = olderThanDays ?? this.settings.securityEventRetentionDays;
    const before = new Date(this.clock.nowMs() - days * 24 * 3600 * 1000);
    let pruned = 0;
    for (;;) {
      const deleted = await this.uow.run(() =>
        this.events.pruneBatch(before, SECURITY_EVENT_POLICY.pruneBatchSize),
      );
      pruned += deleted;
      if (deleted < SECURITY_EVENT_POLICY.pruneBatchSize) return { pruned, before };
    }
  }
}
