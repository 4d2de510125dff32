import { Injectable } from '@nestjs/common';
import { User, userSettingsChange } from '../../domain/user';
import { AccountsError } from '../../domain/errors';
import { UserRepository } from '../ports/user.repository.port';

/**
 * The caller's own settings, as the public client's `set user --file f.json` sends them:
 * the low-balance threshold and whether it is on (docs/spend-guards.md "The low-balance
 * setting"). Any other key is refused by name, changing nothing.
 */
@Injectable()
export class ChangeUserSettingsUseCase {
  constructor(private readonly users: UserRepository) {}

  async execute(userId: number, body: Record<string, unknown>): Promise<User> {
    const parsed = userSettingsChange(body);
    if ('problem' in parsed) throw new AccountsError('bad_request', parsed.problem);
    const user = await this.users.changeSettings(userId, parsed.change);
    if (!user) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    return user;
  }
}
