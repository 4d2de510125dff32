import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { decideUnlist, UnlistOutcome } from '../domain/volume-listing';
import { VolumeListingAuditLog } from './ports/volume-listing-audit-log.port';
import { VolumeListingRepository } from './ports/volume-listing.repository.port';

export interface UnlistVolumeCommand {
  listingId: number;
  actorUserId: number;
  /** The team of the caller's context, or null (docs/teams.md "Ownership"). */
  actorTeamId?: number | null;
}

/** Takes a caller's volume off the marketplace; the status change and its audit entry commit together. */
@Injectable()
export class UnlistVolumeUseCase {
  constructor(
    private readonly listings: VolumeListingRepository,
    private readonly audit: VolumeListingAuditLog,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(command: UnlistVolumeCommand): Promise<UnlistOutcome> {
    return this.uow.run(async () => {
      const listing = await this.listings.findByIdForUpdate(command.listingId);
      const { outcome, previousStatus } = decideUnlist(
        listing,
        command.actorUserId,
        command.actorTeamId ?? null,
      );
      const now = this.clock.now();
      if (outcome === 'unlisted') await this.listings.markUnlisted(command.listingId, now);
      // Repeated unlists are audited too: each one is a request the owner made.
      await this.audit.record({
        listingId: command.listingId,
        actorUserId: command.actorUserId,
        action: 'unlist',
        previousStatus,
        newStatus: 'unlisted',
        occurredAt: now,
      });
      return outcome;
    });
  }
}
