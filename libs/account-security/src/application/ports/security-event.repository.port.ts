import { NewSecurityEvent, SecurityEvent } from '../../domain/security-event';

/**
 * The append-only security history (PostgreSQL refuses every UPDATE, and every DELETE
 * but the prune's). Every method joins the caller's unit of work.
 */
export abstract class SecurityEventRepository {
  abstract append(event: NewSecurityEvent): Promise<SecurityEvent>;
  /** The user's events newest first, with ids below `beforeId` when given. */
  abstract listPage(
    userId: number,
    limit: number,
    beforeId: number | null,
  ): Promise<SecurityEvent[]>;
  /**
   * Deletes up to `batchSize` of the oldest events made before `before`; how many went.
   * Must run inside a unit of work: the permission to delete lasts only for it.
   */
  abstract pruneBatch(before: Date, batchSize: number): Promise<number>;
}
