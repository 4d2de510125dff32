import { Injectable } from '@nestjs/common';
import { ApiKeyAudit, ApiKeyChange } from '@app/accounts';
import { SecurityEventKind } from '../../domain/security-event';
import { SecurityEventLog } from './security-event-log.service';

const KINDS: Record<ApiKeyChange['kind'], SecurityEventKind> = {
  created: 'api_key_created',
  deleted: 'api_key_deleted',
  reset: 'api_key_reset',
};

/**
 * Accounts' ApiKeyAudit port: a key created, deleted or reset becomes a security event
 * (with the key's id, name and prefix, never the key) in the unit of work of the change,
 * and its email notice (docs/identity-tfa.md "Notifications").
 */
@Injectable()
export class RecordApiKeyChangeUseCase extends ApiKeyAudit {
  constructor(private readonly events: SecurityEventLog) {
    super();
  }

  async keyChanged(userId: number, change: ApiKeyChange): Promise<void> {
    await this.events.record({
      userId,
      kind: KINDS[change.kind],
      method: null,
      details: { key_id: change.keyId, name: change.name, prefix: change.prefix },
      origin: change.origin,
    });
  }
}
