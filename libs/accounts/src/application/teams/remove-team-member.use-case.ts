import { Injectable, Optional } from '@nestjs/common';
import { Clock, Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { OWNER_ROLE } from '../../domain/team';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * DELETE /api/v0/team/members/{id}/ (`remove member ID`): the member leaves (a member may
 * remove themselves), their team keys and sessions end on every replica at once. The last
 * owner cannot leave or be removed, and only a caller who could give the member's role may
 * take it away.
 */
@Injectable()
export class RemoveTeamMemberUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly cache: CredentialCache,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(principal: Principal, userId: number, origin: RequestOrigin): Promise<void> {
    await this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      const member = await this.teams.member(caller.team.id, userId);
      if (!member)
        throw new AccountsError('team_member_not_found', `No member ${userId} in this team.`);
      if (member.userId !== caller.userId && member.roleId !== null) {
        const role = await this.teams.roleById(caller.team.id, member.roleId);
        if (role) this.callers.assertGrantable(caller, role);
      }
      if (member.roleName === OWNER_ROLE && member.roleId !== null) {
        if ((await this.teams.countWithRole(caller.team.id, member.roleId)) <= 1)
          throw new AccountsError(
            'team_last_owner',
            'The last owner cannot leave the team: make another member an owner first, or destroy the team.',
          );
      }
      await this.teams.removeMember(caller.team.id, userId, this.clock.now());
      await this.audit?.teamChanged({
        teamId: caller.team.id,
        actorUserId: caller.userId,
        subjectUserId: userId,
        kind: 'team_member_removed',
        details: { team_name: caller.team.name, role: member.roleName },
        origin,
      });
    });
    this.cache.userChanged(userId);
  }
}
