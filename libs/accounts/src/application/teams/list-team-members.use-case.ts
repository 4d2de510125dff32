import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import { Team, TeamMember } from '../../domain/team';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/** GET /api/v0/team/members/ (`show members`): the members of the caller's team with their roles. */
@Injectable()
export class ListTeamMembersUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
  ) {}

  async execute(principal: Principal): Promise<{ team: Team; members: TeamMember[] }> {
    const caller = await this.callers.of(principal);
    return { team: caller.team, members: await this.teams.members(caller.team.id) };
  }
}
