import { Injectable, Optional } from '@nestjs/common';
import {
  AccessCatalog,
  Clock,
  parsePermissionDocument,
  permissionsToJson,
  Principal,
  RequestOrigin,
  UnitOfWork,
} from '@app/platform';
import { ApiKey, expiryAt, KeyParams, RequestedExpiry } from '../../domain/api-key';
import { grantWithin } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { CallerGrant } from './caller-grant.service';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { ApiKeyAudit } from '../ports/api-key-audit.port';

export interface CreateOwnApiKeyCommand {
  principal: Principal;
  name: string | null;
  /** The permission document as sent (null or absent: a full key), checked here. */
  permissions: unknown;
  keyParams: KeyParams | null;
  expiry: RequestedExpiry;
  origin: RequestOrigin;
}

/**
 * POST /api/v0/auth/apikeys/: a key of the caller's, in the caller's context, never
 * beyond the caller's own key (docs/access.md "No escalation"). The key is in the answer
 * once; only its fingerprint is stored. Recorded as a security event and mailed.
 */
@Injectable()
export class CreateOwnApiKeyUseCase {
  constructor(
    private readonly catalog: AccessCatalog,
    private readonly callerGrant: CallerGrant,
    private readonly issuer: CredentialIssuer,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Optional() private readonly audit?: ApiKeyAudit,
  ) {}

  async execute(command: CreateOwnApiKeyCommand): Promise<{ key: string; apiKey: ApiKey }> {
    const document = parsePermissionDocument(command.permissions, {
      catalog: this.catalog,
      wildcards: command.keyParams?.wildcards ?? {},
    });
    if (!document.ok)
      throw new AccountsError('bad_request', `Invalid request: ${document.problem}`);
    const expiry = expiryAt(command.expiry, this.clock.nowMs());
    if (!expiry.ok) throw new AccountsError('bad_request', `Invalid request: ${expiry.problem}`);
    const { principal } = command;
    return this.uow.run(async () => {
      const parent = await this.callerGrant.of(principal);
      const child = grantWithin(
        {
          permissions: document.permissions,
          ipAllowlist: command.keyParams?.ipAllowlist ?? null,
          expiresAt: expiry.value,
        },
        parent,
      );
      if (!child.ok)
        throw new AccountsError(
          'permission_denied',
          `Permission denied: a key can only make keys within its own permissions; this one would have ${child.beyond}`,
        );
      const { ipAllowlist } = child.grant;
      const keyParams =
        command.keyParams || ipAllowlist
          ? {
              ...(command.keyParams?.json ?? {}),
              ...(ipAllowlist ? { ip_whitelist: [...ipAllowlist.entries] } : {}),
            }
          : null;
      const issued = await this.issuer.issueManagedKey({
        userId: principal.userId,
        teamId: principal.teamId,
        name: command.name,
        permissions: permissionsToJson(child.grant.permissions),
        keyParams,
        expiresAt: child.grant.expiresAt,
        main: false,
      });
      await this.audit?.keyChanged(principal.userId, {
        kind: 'created',
        keyId: issued.apiKey.id,
        name: issued.apiKey.name,
        prefix: issued.apiKey.prefix,
        origin: command.origin,
      });
      return issued;
    });
  }
}
