import { Injectable, Optional } from '@nestjs/common';
import { Clock, Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { ApiKey } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { ApiKeyAudit } from '../ports/api-key-audit.port';
import { ApiKeyRepository } from '../ports/api-key.repository.port';

/**
 * PUT /api/v0/commands/reset_apikey/ (`vastai reset api-key`): the main key is replaced
 * by a new one, and the old one stops working at once on every replica. Only a full
 * personal credential may do it (a session, or a key without a permission document):
 * a scoped key would otherwise trade itself for a full one. Two resets of one user take
 * turns; each leaves exactly one main key. Recorded as a security event and mailed.
 */
@Injectable()
export class ResetMainApiKeyUseCase {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly issuer: CredentialIssuer,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Optional() private readonly audit?: ApiKeyAudit,
  ) {}

  async execute(command: {
    principal: Principal;
    origin: RequestOrigin;
  }): Promise<{ key: string; apiKey: ApiKey }> {
    const { principal } = command;
    if (!principal.permissions.full)
      throw new AccountsError(
        'permission_denied',
        'Permission denied: a scoped key cannot reset the main key (use a full key or a session)',
      );
    if (principal.teamId !== null)
      throw new AccountsError(
        'permission_denied',
        'Permission denied: the main key is personal; reset it with a personal key or a session',
      );
    return this.uow.run(async () => {
      const old = await this.apiKeys.lockMain(principal.userId);
      if (old) await this.apiKeys.delete(principal.userId, old.id, this.clock.now());
      const issued = await this.issuer.issueManagedKey({
        userId: principal.userId,
        teamId: null,
        name: old?.name ?? null,
        permissions: null,
        keyParams: null,
        expiresAt: null,
        main: true,
      });
      await this.audit?.keyChanged(principal.userId, {
        kind: 'reset',
        keyId: issued.apiKey.id,
        name: issued.apiKey.name,
        prefix: issued.apiKey.prefix,
        origin: command.origin,
      });
      return issued;
    });
  }
}
