import { Injectable } from '@nestjs/common';
import { Clock, Principal, UnitOfWork } from '@app/platform';
import { TeamInvitation, TeamStore } from '../ports/team-store.port';
import { TeamInvitee } from './team-invitee.service';

/** POST /api/v0/team/decline/ `{token}`: the invitee says no; the token is spent. */
@Injectable()
export class DeclineTeamInvitationUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly invitee: TeamInvitee,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(principal: Principal, token: unknown): Promise<TeamInvitation> {
    return this.uow.run(async () => {
      const invitation = await this.invitee.invitation(principal, token);
      await this.teams.endInvitation(invitation.id, 'declined', this.clock.now());
      return invitation;
    });
  }
}
