import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import { ApiKey } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { ApiKeyRepository } from '../ports/api-key.repository.port';

/**
 * GET /api/v0/auth/apikeys/ and /{id}/: the caller's live keys in the caller's context
 * (personal, or the team of a team key), never a key itself.
 */
@Injectable()
export class ListApiKeysUseCase {
  constructor(private readonly apiKeys: ApiKeyRepository) {}

  execute(principal: Principal): Promise<ApiKey[]> {
    return this.apiKeys.listLive(principal.userId, principal.teamId);
  }

  async one(principal: Principal, keyId: number): Promise<ApiKey> {
    const key = await this.apiKeys.findLive(principal.userId, principal.teamId, keyId);
    if (!key) throw new AccountsError('not_found', `No API key ${keyId}.`);
    return key;
  }
}
