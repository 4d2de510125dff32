import { SessionRevocation } from '../application/ports/session-revocation.port';

/**
 * Records whose other sessions a change asked to end; ends nothing itself, and reports
 * `live` sessions ended (0 unless a test says otherwise).
 */
export class RecordingSessionRevocation extends SessionRevocation {
  readonly calls: Array<{ userId: number; keepSessionId?: number }> = [];
  /** How many sessions the next revokeOthers or revokeAll reports ended. */
  live = 0;

  async revoke(): Promise<boolean> {
    return true;
  }

  async revokeOthers(userId: number, keepSessionId?: number): Promise<number> {
    this.calls.push({ userId, keepSessionId });
    return this.live;
  }

  async revokeAll(userId: number): Promise<number> {
    this.calls.push({ userId });
    return this.live;
  }
}
