import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { OWNER_ROLE, TeamMember } from '../../domain/team';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * PUT /api/v0/team/members/{id}/ `{"role": NAME}`: a member's role changes, on every
 * replica at once. The caller must be able to give both the old and the new role; the last
 * owner cannot be demoted.
 */
@Injectable()
export class SetTeamMemberRoleUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly cache: CredentialCache,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(
    principal: Principal,
    userId: number,
    roleName: string,
    origin: RequestOrigin,
  ): Promise<TeamMember> {
    const updated = await this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      const member = await this.teams.member(caller.team.id, userId);
      if (!member)
        throw new AccountsError('team_member_not_found', `No member ${userId} in this team.`);
      const role = await this.teams.roleByName(caller.team.id, roleName);
      if (!role) throw new AccountsError('team_role_not_found', `No role ${roleName} in this team.`);
      this.callers.assertGrantable(caller, role);
      if (member.roleId !== null) {
        const current = await this.teams.roleById(caller.team.id, member.roleId);
        if (current) this.callers.assertGrantable(caller, current);
        if (
          member.roleName === OWNER_ROLE &&
          role.id !== member.roleId &&
          (await this.teams.countWithRole(caller.team.id, member.roleId)) <= 1
        )
          throw new AccountsError(
            'team_last_owner',
            'The last owner cannot be demoted: make another member an owner first.',
          );
      }
      await this.teams.setMemberRole(caller.team.id, userId, role.id);
      await this.audit?.teamChanged({
        teamId: caller.team.id,
        actorUserId: caller.userId,
        subjectUserId: userId,
        kind: 'team_member_role_changed',
        details: { team_name: caller.team.name, from: member.roleName, to: role.name },
        origin,
      });
      return (await this.teams.member(caller.team.id, userId)) ?? member;
    });
    this.cache.userChanged(userId);
    return updated;
  }
}
