import { AccountsError } from '../../domain/errors';
import { Injectable, Optional } from '@nestjs/common';
import { User } from '../../domain/user';
import { TeamStore } from '../ports/team-store.port';
import { UserRepository } from '../ports/user.repository.port';

@Injectable()
export class GetCurrentUserUseCase {
  constructor(
    private readonly users: UserRepository,
    @Optional() private readonly teams?: TeamStore,
  ) {}

  /** In a team's context (`teamId`), the credit shown is the team's (docs/teams.md). */
  async execute(userId: number, teamId: number | null = null): Promise<User> {
    const user = await this.users.findById(userId);
    // A credential whose user was deleted is as good as no credential.
    if (!user) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    if (teamId === null || !this.teams) return user;
    const team = await this.teams.find(teamId);
    if (!team) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    return { ...user, credit: Number(team.credit) };
  }
}
