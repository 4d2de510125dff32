import { AccountsError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { User } from '../domain/user';
import { UserRepository } from './ports/user.repository.port';

@Injectable()
export class GetCurrentUserUseCase {
  constructor(private readonly users: UserRepository) {}

  async execute(userId: number): Promise<User> {
    const user = await this.users.findById(userId);
    // A credential whose user was deleted is as good as no credential.
    if (!user) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    return user;
  }
}
