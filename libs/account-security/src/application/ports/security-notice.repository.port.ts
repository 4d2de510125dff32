import { SecurityEvent } from '../../domain/security-event';

/**
 * The email owed for an event (one per event of a notified kind): pending from the
 * transaction of the event until it was sent, or abandoned for good. Joins the caller's
 * unit of work.
 */
export abstract class SecurityNoticeRepository {
  abstract addPending(eventId: number, at: Date): Promise<void>;
  /** The event of a notice still owed; null when it was sent, abandoned, or never owed. */
  abstract findPending(eventId: number): Promise<SecurityEvent | null>;
  /** False when it was no longer pending. */
  abstract markSent(eventId: number, at: Date): Promise<boolean>;
  /** Given up (the provider refused it for good, or the user has no address). */
  abstract markAbandoned(eventId: number, at: Date): Promise<boolean>;
  /** Event ids of notices pending since before `createdBefore`, oldest first. */
  abstract pendingSince(createdBefore: Date, limit: number): Promise<number[]>;
}
