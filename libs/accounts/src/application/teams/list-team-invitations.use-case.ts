import { Injectable } from '@nestjs/common';
import { Clock, Principal } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { TeamInvitation, TeamStore } from '../ports/team-store.port';
import { UserRepository } from '../ports/user.repository.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * GET /api/v0/team/invitations/: in a team's context, its pending invitations; in the
 * personal context, the pending invitations to the caller's own address. Never a token.
 */
@Injectable()
export class ListTeamInvitationsUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly users: UserRepository,
    private readonly callers: TeamCallerResolver,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal): Promise<TeamInvitation[]> {
    if (principal.teamId !== null) {
      const caller = await this.callers.of(principal);
      return this.teams.pendingInvitations(caller.team.id, this.clock.now());
    }
    const user = await this.users.findById(principal.userId);
    if (!user) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    return this.teams.invitationsFor(user.email, this.clock.now());
  }
}
