import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { roleNameProblem, TeamRole } from '../../domain/team';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';
import { TeamRoleDocument } from './team-role-document.service';

/**
 * PUT /api/v0/team/roles/{id}/ (`update team-role ID`): a custom role's name or
 * permissions. The default roles stay as they are; the caller must be able to give the
 * role both before and after. Its members act with the new permissions on every replica
 * at once.
 */
@Injectable()
export class UpdateTeamRoleUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly documents: TeamRoleDocument,
    private readonly cache: CredentialCache,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(
    principal: Principal,
    /** The role's id, or its name. */
    roleRef: number | string,
    input: { name?: unknown; permissions?: unknown },
    origin: RequestOrigin,
  ): Promise<TeamRole> {
    if (input.name !== undefined && input.name !== null) {
      const problem = roleNameProblem(input.name);
      if (problem) throw new AccountsError('bad_request', `Invalid request: ${problem}`);
    }
    const permissions =
      input.permissions === undefined || input.permissions === null
        ? undefined
        : this.documents.parse(input.permissions);
    return this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      const role =
        typeof roleRef === 'number'
          ? await this.teams.roleById(caller.team.id, roleRef)
          : await this.teams.roleByName(caller.team.id, roleRef);
      if (!role) throw new AccountsError('team_role_not_found', `No role ${roleRef} in this team.`);
      if (role.isDefault)
        throw new AccountsError('team_role_default', `The default role ${role.name} cannot be changed.`);
      this.callers.assertGrantable(caller, role);
      const updated: TeamRole = {
        ...role,
        name: typeof input.name === 'string' ? input.name : role.name,
        permissions: permissions ?? role.permissions,
      };
      this.callers.assertGrantable(caller, updated);
      if (!(await this.teams.updateRole(updated)))
        throw new AccountsError('team_role_exists', `The team already has a role named ${updated.name}.`);
      for (const userId of await this.teams.userIdsWithRole(caller.team.id, role.id))
        this.cache.userChanged(userId);
      await this.audit?.teamChanged({
        teamId: caller.team.id,
        actorUserId: caller.userId,
        subjectUserId: null,
        kind: 'team_role_updated',
        details: { team_name: caller.team.name, role: updated.name, role_id: role.id },
        origin,
      });
      return updated;
    });
  }
}
