import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { Team } from '../../domain/team';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';
import { UserRepository } from '../ports/user.repository.port';
import { TeamCallerResolver } from './team-caller.service';

/**
 * PUT /api/v0/team/ `{"require_tfa": true|false}`: the team's policy (docs/teams.md
 * "Policy"), owners only. With require_tfa, a member without 2FA enabled is refused in the
 * team's context (403 team_tfa_required) until they enable it, on every replica at once. An
 * owner without 2FA cannot turn it on (they would lock themselves out). Each member is
 * told by a security event and its mail.
 */
@Injectable()
export class SetTeamPolicyUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly users: UserRepository,
    private readonly callers: TeamCallerResolver,
    private readonly cache: CredentialCache,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(principal: Principal, requireTfa: unknown, origin: RequestOrigin): Promise<Team> {
    if (typeof requireTfa !== 'boolean')
      throw new AccountsError('bad_request', 'Invalid request: require_tfa must be true or false');
    return this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      if (!caller.isOwner)
        throw new AccountsError('team_owner_required', "Only an owner may change the team's policy.");
      const user = await this.users.findById(caller.userId);
      if (requireTfa && user && !user.tfaEnabled && user.tfaStatus === 'disabled')
        throw new AccountsError(
          'team_tfa_required',
          'Enable two-factor authentication on your own account before requiring it of the team.',
        );
      await this.teams.setRequireTfa(caller.team.id, requireTfa);
      for (const member of await this.teams.members(caller.team.id)) {
        this.cache.userChanged(member.userId);
        if (caller.team.requireTfa !== requireTfa)
          await this.audit?.teamChanged({
            teamId: caller.team.id,
            actorUserId: caller.userId,
            subjectUserId: member.userId,
            kind: 'team_policy_changed',
            details: { team_name: caller.team.name, require_tfa: requireTfa ? 'on' : 'off' },
            origin,
          });
      }
      return { ...caller.team, requireTfa };
    });
  }
}
