import { Injectable } from '@nestjs/common';
import { OWNER_ROLE } from '../../domain/team';
import { TeamStore } from '../ports/team-store.port';

/** A member who answers for a team's account, and their address. */
export interface TeamContact {
  userId: number;
  email: string;
}

/** The role names whose members are a team's contacts: its owner and managers. */
export const TEAM_CONTACT_ROLES: readonly string[] = [OWNER_ROLE, 'manager'];

/**
 * Who hears about a team's account (a budget alert): the members of its owner and
 * manager roles, the roles that may change what the team spends. Other contexts read it
 * through accounts' index.
 */
@Injectable()
export class TeamContacts {
  constructor(private readonly teams: TeamStore) {}

  async of(teamId: number): Promise<TeamContact[]> {
    const members = await this.teams.members(teamId);
    return members
      .filter((member) => member.roleName !== null && TEAM_CONTACT_ROLES.includes(member.roleName))
      .filter((member) => member.email.length > 0)
      .map((member) => ({ userId: member.userId, email: member.email }));
  }
}
