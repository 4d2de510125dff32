import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { roleNameProblem, TeamRole } from '../../domain/team';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';
import { TeamRoleDocument } from './team-role-document.service';

/**
 * POST /api/v0/team/roles/ `{name, permissions}` (`create team-role`): a custom role,
 * never broader than the caller's own permissions.
 */
@Injectable()
export class CreateTeamRoleUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly documents: TeamRoleDocument,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(
    principal: Principal,
    input: { name: unknown; permissions: unknown },
    origin: RequestOrigin,
  ): Promise<TeamRole> {
    const problem = roleNameProblem(input.name);
    if (problem) throw new AccountsError('bad_request', `Invalid request: ${problem}`);
    const name = input.name as string;
    const permissions = this.documents.parse(input.permissions);
    return this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      this.callers.assertGrantable(caller, { name, permissions });
      const role = await this.teams.insertRole(caller.team.id, name, permissions);
      if (!role) throw new AccountsError('team_role_exists', `The team already has a role named ${name}.`);
      await this.audit?.teamChanged({
        teamId: caller.team.id,
        actorUserId: caller.userId,
        subjectUserId: null,
        kind: 'team_role_created',
        details: { team_name: caller.team.name, role: role.name, role_id: role.id },
        origin,
      });
      return role;
    });
  }
}
