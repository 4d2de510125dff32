import { RequestOrigin } from '@app/platform';
import { SessionAudit, SessionEndCause } from '../application/ports/session-audit.port';

/** Records the ends of sessions it hears of. */
export class RecordingSessionAudit extends SessionAudit {
  readonly ended: Array<{
    userId: number;
    count: number;
    cause: SessionEndCause;
    origin: RequestOrigin;
  }> = [];

  async sessionsEnded(
    userId: number,
    ended: { count: number; cause: SessionEndCause; origin: RequestOrigin },
  ): Promise<void> {
    this.ended.push({ userId, ...ended });
  }
}
