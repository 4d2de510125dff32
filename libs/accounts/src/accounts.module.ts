import { DynamicModule, Module, OnModuleInit, Type } from '@nestjs/common';
import Redis from 'ioredis';
import {
  CredentialVerifier,
  ErrorCatalog,
  FixtureRegistry,
  OperatorCommandRegistry,
  PlatformConfig,
  RedisConnectionFactory,
  TransactionalEntityManager,
} from '@app/platform';
import { AuthenticateBearerUseCase } from './application/authenticate-bearer.use-case';
import { CreateApiKeyUseCase } from './application/create-api-key.use-case';
import { CreateUserUseCase } from './application/create-user.use-case';
import { CredentialIssuer } from './application/credential-issuer';
import { CredentialSessionRevocation } from './application/credential-session-revocation';
import { GetCurrentUserUseCase } from './application/get-current-user.use-case';
import { LogoutUseCase } from './application/logout.use-case';
import { PasswordLoginUseCase } from './application/password-login.use-case';
import { RevokeUserSessionsUseCase } from './application/revoke-user-sessions.use-case';
import {
  CredentialRepository,
  TeamRepository,
} from './application/ports/credential.repository.port';
import { CredentialCache } from './application/ports/credential-cache.port';
import { LoginThrottle } from './application/ports/login-throttle.port';
import { PasswordHasher } from './application/ports/password-hasher.port';
import { SessionRevocation } from './application/ports/session-revocation.port';
import { UserRepository } from './application/ports/user.repository.port';
import { ACCOUNTS_ERRORS } from './domain/errors';
import { LoginController } from './http/login.controller';
import { LogoutController } from './http/logout.controller';
import { UsersController } from './http/users.controller';
import { TeamsFixtureLoader, UsersFixtureLoader } from './infrastructure/accounts-fixture.loaders';
import { Argon2PasswordHasher } from './infrastructure/argon2-password-hasher';
import { PostgresCredentialRepository } from './infrastructure/persistence/postgres-credential.repository';
import { PostgresTeamRepository } from './infrastructure/persistence/postgres-team.repository';
import { PostgresUserRepository } from './infrastructure/persistence/postgres-user.repository';
import { RedisCredentialCache } from './infrastructure/redis/redis-credential-cache';
import { RedisLoginThrottle } from './infrastructure/redis/redis-login-throttle';
import { AccountsCommands } from './operator/accounts.commands';

/** The database index of a Redis URL: pub/sub channels are shared by all of a server's databases. */
function redisDatabase(url: string): number {
  const path = new URL(url).pathname;
  return path.length > 1 ? Number(path.slice(1)) : 0;
}

@Module({
  controllers: [UsersController, LoginController, LogoutController],
  providers: [
    { provide: UserRepository, useClass: PostgresUserRepository },
    { provide: CredentialRepository, useClass: PostgresCredentialRepository },
    { provide: TeamRepository, useClass: PostgresTeamRepository },
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    {
      provide: LoginThrottle,
      inject: [Redis, PlatformConfig],
      useFactory: (redis: Redis, config: PlatformConfig) =>
        new RedisLoginThrottle(redis, {
          enabled: config.rateLimits.enabled,
          windowSeconds: 15 * 60,
          maxFailures: { user: 10, login: 10, addr: 50 },
        }),
    },
    {
      provide: CredentialCache,
      inject: [RedisConnectionFactory, Redis, TransactionalEntityManager, PlatformConfig],
      useFactory: (
        connections: RedisConnectionFactory,
        redis: Redis,
        tx: TransactionalEntityManager,
        config: PlatformConfig,
      ) =>
        new RedisCredentialCache(connections, redis, tx, {
          ttlMs: 5_000,
          maxEntries: 10_000,
          channel: `credential-changes:${redisDatabase(config.redis.url)}`,
          enabled: !config.embedded,
        }),
    },
    CredentialIssuer,
    AuthenticateBearerUseCase,
    { provide: CredentialVerifier, useExisting: AuthenticateBearerUseCase },
    GetCurrentUserUseCase,
    CreateUserUseCase,
    CreateApiKeyUseCase,
    PasswordLoginUseCase,
    { provide: SessionRevocation, useClass: CredentialSessionRevocation },
    LogoutUseCase,
    RevokeUserSessionsUseCase,
    UsersFixtureLoader,
    TeamsFixtureLoader,
    AccountsCommands,
  ],
  exports: [
    CredentialVerifier,
    UserRepository,
    CredentialIssuer,
    SessionRevocation,
    CreateUserUseCase,
    GetCurrentUserUseCase,
  ],
})
export class AccountsModule implements OnModuleInit {
  /**
   * Accounts whose password login hands over to a second factor: `secondFactor` is a
   * module that exports the LoginSecondFactor port, and the ports around it that accounts
   * owns and that context implements: TrustedDeviceLogin (a remembered device stands in
   * for the factor) and SessionAudit (sessions ended are recorded). Accounts never imports
   * the context that implements them (that context depends on accounts), so that context
   * composes this once and the apps import its result in place of AccountsModule. Without
   * it, a login of an account with 2FA answers service_unavailable, no device is trusted
   * and nothing is recorded.
   */
  static withSecondFactor(secondFactor: Type): DynamicModule {
    return { module: AccountsModule, imports: [secondFactor] };
  }

  constructor(
    private readonly errors: ErrorCatalog,
    private readonly fixtures: FixtureRegistry,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly usersFixture: UsersFixtureLoader,
    private readonly teamsFixture: TeamsFixtureLoader,
    private readonly commands: AccountsCommands,
  ) {
    errors.register(ACCOUNTS_ERRORS);
  }

  onModuleInit(): void {
    this.fixtures.register(this.usersFixture);
    this.fixtures.register(this.teamsFixture);
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
  }
}
