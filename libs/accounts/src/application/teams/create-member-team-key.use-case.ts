import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { ApiKey } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { ApiKeyAudit } from '../ports/api-key-audit.port';
import { TeamStore } from '../ports/team-store.port';

/**
 * POST /api/v0/team/{team_id}/apikeys/: a member's new team key, asked for from their
 * personal context (a lost team key is replaced this way). The key acts in the team with
 * the member's role; narrower keys are made with it through POST /auth/apikeys/.
 */
@Injectable()
export class CreateMemberTeamKeyUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly issuer: CredentialIssuer,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: ApiKeyAudit,
  ) {}

  async execute(
    principal: Principal,
    teamId: number,
    name: string | null,
    origin: RequestOrigin,
  ): Promise<{ key: string; apiKey: ApiKey }> {
    if (principal.teamId !== null)
      throw new AccountsError(
        'personal_context_required',
        'A team key is asked for from your personal context: use a personal key.',
      );
    if (!principal.permissions.full)
      throw new AccountsError(
        'permission_denied',
        'Permission denied: a scoped key cannot make a team key (use a full key or a session)',
      );
    return this.uow.run(async () => {
      if (!(await this.teams.member(teamId, principal.userId)))
        throw new AccountsError('team_not_found', `You are not a member of team ${teamId}.`);
      const issued = await this.issuer.issueManagedKey({
        userId: principal.userId,
        teamId,
        name,
        permissions: null,
        keyParams: null,
        expiresAt: null,
        main: false,
      });
      await this.audit?.keyChanged(principal.userId, {
        kind: 'created',
        keyId: issued.apiKey.id,
        name: issued.apiKey.name,
        prefix: issued.apiKey.prefix,
        origin,
      });
      return issued;
    });
  }
}
