import { Injectable } from '@nestjs/common';
import { Permissions, permissionsWithin, Principal } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { OWNER_ROLE, rolePermissions, Team, TeamMember, TeamRole } from '../../domain/team';
import { TeamStore } from '../ports/team-store.port';

export interface TeamCaller {
  team: Team;
  member: TeamMember;
  userId: number;
  /** What the caller may do here: their role's grant intersected with their key's. */
  permissions: Permissions;
  isOwner: boolean;
}

/**
 * Who is calling a team route: the team of the caller's credential and their membership.
 * Team routes need a team credential; a member no longer in the team is refused as the
 * authentication would refuse their key (docs/teams.md).
 */
@Injectable()
export class TeamCallerResolver {
  constructor(private readonly teams: TeamStore) {}

  async of(principal: Principal, options: { lock?: boolean } = {}): Promise<TeamCaller> {
    if (principal.teamId === null)
      throw new AccountsError(
        'team_context_required',
        'This action needs a team key: use the key of a team you are a member of.',
      );
    const team = options.lock
      ? await this.teams.lock(principal.teamId)
      : await this.teams.find(principal.teamId);
    const member = team ? await this.teams.member(team.id, principal.userId) : null;
    if (!team || !member) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    return {
      team,
      member,
      userId: principal.userId,
      permissions: principal.permissions,
      isOwner: member.roleName === OWNER_ROLE,
    };
  }

  /** Nobody hands out a role broader than what they may do themselves. */
  assertGrantable(caller: TeamCaller, role: Pick<TeamRole, 'permissions' | 'name'>): void {
    const within = permissionsWithin(rolePermissions(role), caller.permissions);
    if (!within.within)
      throw new AccountsError(
        'permission_denied',
        `Permission denied: a role can only be given within your own permissions; ${role.name} would have ${within.beyond}`,
      );
  }
}
