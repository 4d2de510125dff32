import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { TeamRole } from '../../domain/team';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/** GET /api/v0/team/roles-full/ (`show team-roles`) and GET /api/v0/team/roles/{name}/ (`show team-role`). */
@Injectable()
export class ListTeamRolesUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
  ) {}

  async execute(principal: Principal): Promise<TeamRole[]> {
    const caller = await this.callers.of(principal);
    return this.teams.roles(caller.team.id);
  }

  async one(principal: Principal, name: string): Promise<TeamRole> {
    const caller = await this.callers.of(principal);
    const role = await this.teams.roleByName(caller.team.id, name);
    if (!role) throw new AccountsError('team_role_not_found', `No role ${name} in this team.`);
    return role;
  }
}
