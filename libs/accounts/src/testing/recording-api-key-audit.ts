import { ApiKeyAudit, ApiKeyChange } from '../application/ports/api-key-audit.port';

/** Records the key changes it hears of. */
export class RecordingApiKeyAudit extends ApiKeyAudit {
  readonly changes: Array<ApiKeyChange & { userId: number }> = [];

  async keyChanged(userId: number, change: ApiKeyChange): Promise<void> {
    this.changes.push({ userId, ...change });
  }
}
