import { AccountsError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { OperatorCommand } from '@app/platform';
import { CreateApiKeyUseCase } from '../application/api-keys/create-api-key.use-case';
import { CreateUserUseCase } from '../application/users/create-user.use-case';
import { UserRepository } from '../application/ports/user.repository.port';
import { RevokeUserSessionsUseCase } from '../application/sessions/revoke-user-sessions.use-case';

function positiveInt(value: unknown, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new AccountsError('bad_request', `${name} must be a positive integer`);
  return parsed;
}

/**
 * `manage user:create`, `apikey:create`, `user:flag-sms-fraud`, `user:clear-sms-fraud`,
 * `user:revoke-sessions`.
 */
@Injectable()
export class AccountsCommands {
  constructor(
    private readonly createUser: CreateUserUseCase,
    private readonly createApiKey: CreateApiKeyUseCase,
    private readonly users: UserRepository,
    private readonly revokeSessions: RevokeUserSessionsUseCase,
  ) {}

  commands(): OperatorCommand[] {
    return [
      {
        name: 'user:create',
        description: 'Create a user and its first API key',
        options: [
          ['--email <email>', 'login email (required)'],
          ['--password <password>', 'password for the password login'],
          ['--username <username>', 'login name'],
          ['--full-name <name>', 'display name'],
          ['--verified', 'mark the email verified'],
          ['--admin', 'make the user an admin'],
          ['--phone <e164>', 'phone number on the user record, E.164'],
          [
            '--legacy-tfa',
            '2FA enabled the legacy way (phone on the user record, no methods, no backup codes)',
          ],
          ['--credit <amount>', 'account credit'],
        ],
        run: async (_args, options) => {
          if (typeof options.email !== 'string')
            throw new AccountsError('bad_request', '--email is required');
          const { user, apiKey } = await this.createUser.execute({
            email: options.email,
            username: (options.username as string | undefined) ?? null,
            password: (options.password as string | undefined) ?? null,
            fullName: (options.fullName as string | undefined) ?? '',
            verified: options.verified === true,
            admin: options.admin === true,
            phone: (options.phone as string | undefined) ?? null,
            legacyTfa: options.legacyTfa === true,
            credit: options.credit !== undefined ? Number(options.credit) : 0,
          });
          return { id: user.id, api_key: apiKey };
        },
      },
      {
        name: 'apikey:create',
        description: 'Create an API key for a user, optionally scoped to a team',
        options: [
          ['--user <id>', 'user id (required)'],
          ['--team <id>', 'team id: requests with this key are in team context'],
        ],
        run: async (_args, options) => {
          const userId = positiveInt(options.user, '--user');
          const teamId = options.team !== undefined ? positiveInt(options.team, '--team') : null;
          return { api_key: await this.createApiKey.execute(userId, teamId) };
        },
      },
      {
        name: 'user:flag-sms-fraud',
        description: 'Disable SMS sending for an account suspected of SMS pumping',
        arguments: ['<id>'],
        run: async ([id]) => ({
          id: positiveInt(id, 'id'),
          flagged: await this.flag(positiveInt(id, 'id'), new Date()),
        }),
      },
      {
        name: 'user:clear-sms-fraud',
        description: 'Re-enable SMS sending for an account',
        arguments: ['<id>'],
        run: async ([id]) => ({
          id: positiveInt(id, 'id'),
          cleared: await this.flag(positiveInt(id, 'id'), null),
        }),
      },
      {
        name: 'user:revoke-sessions',
        description: 'End every session and every trusted device of a user (API keys stay valid)',
        arguments: ['<id>'],
        run: async ([id]) => {
          const userId = positiveInt(id, 'id');
          const ended = await this.revokeSessions.execute(userId);
          return { id: userId, revoked: ended.sessions, devices_revoked: ended.devices };
        },
      },
    ];
  }

  private async flag(userId: number, at: Date | null): Promise<boolean> {
    if (!(await this.users.setSmsFraudFlag(userId, at)))
      throw new AccountsError('not_found', `No user ${userId}`);
    return true;
  }
}
