import { Injectable, Optional } from '@nestjs/common';
import { Clock, permissionsWithin, Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { CallerGrant } from './caller-grant.service';
import { ApiKeyAudit } from '../ports/api-key-audit.port';
import { ApiKeyRepository } from '../ports/api-key.repository.port';

/**
 * DELETE /api/v0/auth/apikeys/{id}/: the key stops working at once on every replica (the
 * credential cache forgets the user's keys everywhere once this commits). The main key
 * is rotated, not deleted; a key deletes only keys within its own permissions, so a
 * scoped key cannot take away a broader one. Recorded as a security event and mailed.
 */
@Injectable()
export class DeleteApiKeyUseCase {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly callerGrant: CallerGrant,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Optional() private readonly audit?: ApiKeyAudit,
  ) {}

  async execute(command: {
    principal: Principal;
    keyId: number;
    origin: RequestOrigin;
  }): Promise<void> {
    const { principal, keyId } = command;
    await this.uow.run(async () => {
      const key = await this.apiKeys.findLive(principal.userId, principal.teamId, keyId);
      if (!key) throw new AccountsError('not_found', `No API key ${keyId}.`);
      if (key.main)
        throw new AccountsError(
          'bad_request',
          'The main key cannot be deleted; reset it instead (PUT /api/v0/commands/reset_apikey/).',
        );
      const parent = await this.callerGrant.of(principal);
      const within = permissionsWithin(key.permissions, parent.permissions);
      if (!within.within)
        throw new AccountsError(
          'permission_denied',
          `Permission denied: a key can only delete keys within its own permissions; key ${keyId} has ${within.beyond}`,
        );
      await this.apiKeys.delete(principal.userId, key.id, this.clock.now());
      await this.audit?.keyChanged(principal.userId, {
        kind: 'deleted',
        keyId: key.id,
        name: key.name,
        prefix: key.prefix,
        origin: command.origin,
      });
    });
  }
}
