import { Injectable } from '@nestjs/common';
import { User, UserRepository } from '@app/accounts';
import { ACCOUNT_SECURITY_ERROR_MESSAGES } from '../domain/error-messages';
import { AccountSecurityError } from '../domain/errors';

/** The user behind an account-security request: the credential's, which must still exist. */
@Injectable()
export class AccountLookup {
  constructor(private readonly users: UserRepository) {}

  async user(userId: number): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user)
      throw new AccountSecurityError(
        'auth_invalid_key',
        ACCOUNT_SECURITY_ERROR_MESSAGES.invalidUserKey,
      );
    return user;
  }
}
