import { AccountsError } from '../../domain/errors';
import { Injectable } from '@nestjs/common';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { TeamRepository } from '../ports/team.repository.port';
import { UserRepository } from '../ports/user.repository.port';

/** A personal key, or a key scoped to a team the user belongs to (team context). */
@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly teams: TeamRepository,
    private readonly issuer: CredentialIssuer,
  ) {}

  async execute(
    userId: number,
    teamId: number | null = null,
    explicitKey?: string,
  ): Promise<string> {
    if (!(await this.users.findById(userId)))
      throw new AccountsError('not_found', `No user ${userId}`);
    if (teamId !== null && !(await this.teams.isMember(teamId, userId))) {
      throw new AccountsError('bad_request', `User ${userId} is not a member of team ${teamId}`);
    }
    return this.issuer.issueApiKey(userId, teamId, explicitKey);
  }
}
