export { MarketplaceVolumesModule } from './marketplace-volumes.module';
export {
  ListingAuditEntry,
  VolumeListingAuditLog,
} from './application/ports/volume-listing-audit-log.port';
