import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { TeamRole } from '../../domain/team';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * DELETE /api/v0/team/roles/{name}/ (`remove team-role NAME`): a custom role nobody holds
 * (give its members another role first); the default roles stay.
 */
@Injectable()
export class RemoveTeamRoleUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(principal: Principal, name: string, origin: RequestOrigin): Promise<TeamRole> {
    return this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      const role = await this.teams.roleByName(caller.team.id, name);
      if (!role) throw new AccountsError('team_role_not_found', `No role ${name} in this team.`);
      if (role.isDefault)
        throw new AccountsError('team_role_default', `The default role ${role.name} cannot be removed.`);
      this.callers.assertGrantable(caller, role);
      const holders = await this.teams.countWithRole(caller.team.id, role.id);
      if (holders > 0)
        throw new AccountsError(
          'team_role_in_use',
          `${holders} member(s) hold the role ${role.name}: give them another role first.`,
        );
      await this.teams.deleteRole(caller.team.id, role.id);
      await this.audit?.teamChanged({
        teamId: caller.team.id,
        actorUserId: caller.userId,
        subjectUserId: null,
        kind: 'team_role_removed',
        details: { team_name: caller.team.name, role: role.name, role_id: role.id },
        origin,
      });
      return role;
    });
  }
}
