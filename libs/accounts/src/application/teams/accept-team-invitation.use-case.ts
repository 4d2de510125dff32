import { Injectable, Optional } from '@nestjs/common';
import { Clock, Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { ApiKey } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamInvitation, TeamStore } from '../ports/team-store.port';
import { TeamInvitee } from './team-invitee.service';

/**
 * POST /api/v0/team/accept/ `{token}`: the invitee, with their own personal
 * credential, joins the team with the invited role; the answer carries their first team
 * key (shown once). The token is spent in the same transaction.
 */
@Injectable()
export class AcceptTeamInvitationUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly invitee: TeamInvitee,
    private readonly issuer: CredentialIssuer,
    private readonly cache: CredentialCache,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(
    principal: Principal,
    token: unknown,
    origin: RequestOrigin,
  ): Promise<{ invitation: TeamInvitation; teamKey: { key: string; apiKey: ApiKey } }> {
    const accepted = await this.uow.run(async () => {
      const invitation = await this.invitee.invitation(principal, token);
      await this.teams.lock(invitation.teamId);
      if (!(await this.teams.addMember(invitation.teamId, principal.userId, invitation.roleId)))
        throw new AccountsError('team_member_exists', 'You are a member of this team already.');
      await this.teams.endInvitation(invitation.id, 'accepted', this.clock.now());
      const teamKey = await this.issuer.issueManagedKey({
        userId: principal.userId,
        teamId: invitation.teamId,
        name: `${invitation.teamName} member key`.slice(0, 255),
        permissions: null,
        keyParams: null,
        expiresAt: null,
        main: false,
      });
      await this.audit?.teamChanged({
        teamId: invitation.teamId,
        actorUserId: principal.userId,
        subjectUserId: principal.userId,
        kind: 'team_member_joined',
        details: { team_name: invitation.teamName, role: invitation.roleName },
        origin,
      });
      return { invitation, teamKey };
    });
    this.cache.userChanged(principal.userId);
    return accepted;
  }
}
