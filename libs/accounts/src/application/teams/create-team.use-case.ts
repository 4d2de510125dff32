import { Injectable, Optional } from '@nestjs/common';
import { Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { ApiKey } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { Team, TeamRole, teamNameProblem, transferAmount } from '../../domain/team';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { CredentialCache } from '../ports/credential-cache.port';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamStore } from '../ports/team-store.port';

export interface CreateTeamCommand {
  principal: Principal;
  teamName: unknown;
  transferCredit: unknown;
  origin: RequestOrigin;
}

export interface CreatedTeam {
  team: Team;
  roles: TeamRole[];
  /**
   * The caller's new personal key: their key, or session, now acts in the team. For a key,
   * the grant it had; for a session, a full key (a session is its user's full credential).
   */
  personalKey: { key: string; apiKey: ApiKey };
}

/**
 * POST /api/v0/team/ (`create team`): a team with the default roles, the caller its
 * owner. As on the public service, the key that ran it becomes the owner's team key, so
 * the team commands that follow work with it; the answer carries a fresh personal key with
 * the same grant, so the owner still reaches their personal context (docs/teams.md). A
 * session becomes a team session the same way and gets a full personal key back: a
 * session is its user's full credential, so the key grants nothing it did not.
 * `transfer_credit` moves that much of the caller's credit to the team, exactly, in the
 * same transaction, or nothing happens.
 */
@Injectable()
export class CreateTeamUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly issuer: CredentialIssuer,
    private readonly cache: CredentialCache,
    private readonly uow: UnitOfWork,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(command: CreateTeamCommand): Promise<CreatedTeam> {
    const { principal } = command;
    if (principal.teamId !== null)
      throw new AccountsError(
        'personal_context_required',
        'A team is created from your personal context: use a personal key.',
      );
    const nameProblem = teamNameProblem(command.teamName);
    if (nameProblem) throw new AccountsError('bad_request', `Invalid request: ${nameProblem}`);
    const amount = transferAmount(command.transferCredit);
    if (amount === null)
      throw new AccountsError(
        'bad_request',
        'Invalid request: transfer_credit must be a non-negative amount with at most 4 decimals',
      );
    const name = (command.teamName as string).trim();
    const created = await this.uow.run(async () => {
      const { team, roles } = await this.teams.create(name, principal.userId);
      if (Number(amount) > 0 && !(await this.teams.transferCredit(principal.userId, team.id, amount)))
        throw new AccountsError(
          'insufficient_credit',
          `Your credit is less than the ${amount} to transfer.`,
        );
      const moved = await this.teams.moveCredentialToTeam(
        principal.credentialKind,
        principal.credentialId,
        team.id,
      );
      // A session moves with no document, no expiry and never as the main key: its
      // personal key is then a full key beside the user's main one.
      const personalKey = await this.issuer.issueManagedKey({
        userId: principal.userId,
        teamId: null,
        name: moved.wasMain ? null : 'personal',
        permissions: moved.permissions,
        keyParams: moved.keyParams as never,
        expiresAt: moved.expiresAt,
        main: moved.wasMain,
      });
      await this.audit?.teamChanged({
        teamId: team.id,
        actorUserId: principal.userId,
        subjectUserId: principal.userId,
        kind: 'team_created',
        details: { team_name: team.name, transfer_credit: amount },
        origin: command.origin,
      });
      return { team: (await this.teams.find(team.id)) ?? team, roles, personalKey };
    });
    // The caller's key now belongs to the team: no replica may keep its personal record.
    this.cache.userChanged(principal.userId);
    return created;
  }
}
