import { AccountsError } from '../../domain/errors';
import { Injectable } from '@nestjs/common';
import { User } from '../../domain/user';
import { CredentialIssuer } from '../credentials/credential-issuer.service';
import { PasswordHasher } from '../ports/password-hasher.port';
import { UserRepository } from '../ports/user.repository.port';

export interface CreateUserCommand {
  id?: number;
  email: string;
  username?: string | null;
  password?: string | null;
  fullName?: string;
  verified?: boolean;
  admin?: boolean;
  phone?: string | null;
  /** 2FA enabled the legacy way: phone on the user record, no method rows, no backup codes. */
  legacyTfa?: boolean;
  credit?: number;
  /** Explicit API key (fixtures); a random one otherwise. */
  apiKey?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{6,14}$/;

/** Creates an account and its first API key, its main key (operators, fixtures, tests). */
@Injectable()
export class CreateUserUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly issuer: CredentialIssuer,
  ) {}

  async execute(command: CreateUserCommand): Promise<{ user: User; apiKey: string }> {
    if (!EMAIL.test(command.email))
      throw new AccountsError('bad_request', `Invalid email: ${command.email}`);
    if (command.phone && !E164.test(command.phone)) {
      throw new AccountsError('bad_request', 'phone must be in E.164 format, e.g. +15551230001');
    }
    if (command.legacyTfa && !command.phone) {
      throw new AccountsError('bad_request', 'A legacy 2FA account needs a phone number');
    }
    const record = {
      email: command.email,
      username: command.username ?? null,
      fullName: command.fullName ?? '',
      passwordHash: command.password ? await this.hasher.hash(command.password) : null,
      emailVerified: command.verified ?? false,
      isAdmin: command.admin ?? false,
      phoneNumber: command.phone ?? null,
      tfaStatus: command.legacyTfa ? ('legacy' as const) : ('disabled' as const),
      credit: command.credit ?? 0,
    };
    const user =
      command.id !== undefined
        ? await this.users.upsert({ ...record, id: command.id })
        : await this.users.create(record);
    const apiKey = await this.issuer.issueApiKey(user.id, null, command.apiKey, { main: true });
    return { user, apiKey };
  }
}
