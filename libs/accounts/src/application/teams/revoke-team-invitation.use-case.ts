import { Injectable } from '@nestjs/common';
import { Clock, Principal, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * DELETE /api/v0/team/invitations/{id}/: a pending invitation of the caller's team ends;
 * its token stops working. Only a caller who could give its role may take it back.
 */
@Injectable()
export class RevokeTeamInvitationUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(principal: Principal, invitationId: number): Promise<void> {
    await this.uow.run(async () => {
      const caller = await this.callers.of(principal);
      const invitation = await this.teams.invitationById(invitationId, this.clock.now());
      if (!invitation || invitation.teamId !== caller.team.id)
        throw new AccountsError(
          'team_invitation_not_found',
          `No pending invitation ${invitationId} of this team.`,
        );
      const role = await this.teams.roleById(caller.team.id, invitation.roleId);
      if (role) this.callers.assertGrantable(caller, role);
      await this.teams.endInvitation(invitation.id, 'revoked', this.clock.now());
    });
  }
}
