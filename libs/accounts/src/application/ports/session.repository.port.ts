import { SessionRecord } from '../../domain/session';

/** The sessions a user sees and ends (GET and DELETE /api/v0/auth/sessions/). */
export abstract class SessionRepository {
  /** The user's live sessions (neither ended nor expired at `now`), newest first. */
  abstract listLive(userId: number, now: Date): Promise<SessionRecord[]>;
  /** Ends the user's live session `sessionId`; false when it is not one. */
  abstract endLive(userId: number, sessionId: number, now: Date): Promise<boolean>;
}
