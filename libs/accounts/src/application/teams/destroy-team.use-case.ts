import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * DELETE /api/v0/team/ (`destroy team`): the owner only. Refused while the team still
 * holds credit or other members (docs/teams.md "Destroying a team"); then every team key
 * and session ends with it, on every replica.
 */
@Injectable()
export class DestroyTeamUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly callers: TeamCallerResolver,
    private readonly cache: CredentialCache,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(principal: Principal, origin: RequestOrigin): Promise<{ teamId: number; name: string }> {
    const result = await this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      if (!caller.isOwner)
        throw new AccountsError('team_owner_required', 'Only an owner of the team may destroy it.');
      const members = await this.teams.members(caller.team.id);
      if (members.length > 1)
        throw new AccountsError(
          'team_not_empty',
          `The team still has ${members.length - 1} other member(s): remove them first.`,
        );
      if (Number(caller.team.credit) > 0)
        throw new AccountsError(
          'team_not_empty',
          `The team still holds ${caller.team.credit} of credit: spend or move it first.`,
        );
      await this.audit?.teamChanged({
        teamId: null,
        actorUserId: principal.userId,
        subjectUserId: principal.userId,
        kind: 'team_destroyed',
        details: { team_id: caller.team.id, team_name: caller.team.name },
        origin,
      });
      if (!(await this.teams.destroy(caller.team.id)))
        throw new AccountsError(
          'team_not_empty',
          'The team still holds resources (endpoint groups, volume listings or contracts): delete them first.',
        );
      return { teamId: caller.team.id, name: caller.team.name };
    });
    this.cache.userChanged(principal.userId);
    return result;
  }
}
