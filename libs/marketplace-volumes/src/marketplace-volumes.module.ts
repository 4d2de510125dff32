import { Module, OnModuleInit } from '@nestjs/common';
import { ErrorCatalog, FixtureRegistry, RateLimitRegistry } from '@app/platform';
import { VolumeListingAuditLog } from './application/ports/volume-listing-audit-log.port';
import { VolumeListingRepository } from './application/ports/volume-listing.repository.port';
import { UnlistVolumeUseCase } from './application/unlist-volume.use-case';
import { VolumesController } from './http/volumes.controller';
import { VOLUMES_ERRORS } from './domain/errors';
import { PostgresVolumeListingAuditLog } from './infrastructure/persistence/postgres-volume-listing-audit-log';
import { PostgresVolumeListingRepository } from './infrastructure/persistence/postgres-volume-listing.repository';
import { VolumeListingsFixtureLoader } from './infrastructure/volume-listings-fixture.loader';
import { VOLUMES_RATE_LIMITS } from './http/rate-limits';

/** Volume listings on the marketplace: unlisting, with an audit trail. */
@Module({
  controllers: [VolumesController],
  providers: [
    { provide: VolumeListingRepository, useClass: PostgresVolumeListingRepository },
    { provide: VolumeListingAuditLog, useClass: PostgresVolumeListingAuditLog },
    UnlistVolumeUseCase,
    VolumeListingsFixtureLoader,
  ],
})
export class MarketplaceVolumesModule implements OnModuleInit {
  constructor(
    errors: ErrorCatalog,
    rateLimits: RateLimitRegistry,
    private readonly fixtures: FixtureRegistry,
    private readonly listingsFixture: VolumeListingsFixtureLoader,
  ) {
    errors.register(VOLUMES_ERRORS);
    rateLimits.register(VOLUMES_RATE_LIMITS);
  }

  onModuleInit(): void {
    this.fixtures.register(this.listingsFixture);
  }
}
