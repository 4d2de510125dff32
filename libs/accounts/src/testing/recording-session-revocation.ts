import { SessionRevocation } from '../application/ports/session-revocation.port';

/** Records whose other sessions a change asked to end; ends nothing itself. */
export class RecordingSessionRevocation extends SessionRevocation {
  readonly calls: Array<{ userId: number; keepSessionId?: number }> = [];

  async revoke(): Promise<boolean> {
    return true;
  }

  async revokeOthers(userId: number, keepSessionId?: number): Promise<number> {
    this.calls.push({ userId, keepSessionId });
    return 0;
  }

  async revokeAll(): Promise<number> {
    return 0;
  }
}
