import { DynamicModule, Module, OnModuleInit, Type } from '@nestjs/common';
import Redis from 'ioredis';
import {
  ConfigReader,
  CredentialUseRecorder,
  CredentialVerifier,
  Environment,
  ErrorCatalog,
  FixtureRegistry,
  OperatorCommandRegistry,
  PlatformConfig,
  RedisConnectionFactory,
  TransactionalEntityManager,
} from '@app/platform';
import { MessageHandlers, MessagingModule } from '@app/messaging';
import {
  TEAM_INVITATION_JOB,
  TeamInvitationJob,
  TeamInvitationMail,
  TeamInvitationMailSettings,
} from './application/ports/team-invitation-mail.port';
import { DeliverTeamInvitationUseCase } from './application/teams/deliver-team-invitation.use-case';
import { MessagingTeamInvitationMail } from './infrastructure/messaging/messaging-team-invitation.mail';
import { AuthenticateBearerUseCase } from './application/credentials/authenticate-bearer.use-case';
import { CallerGrant } from './application/api-keys/caller-grant.service';
import { CreateOwnApiKeyUseCase } from './application/api-keys/create-own-api-key.use-case';
import { CredentialUseBatcher } from './application/credentials/credential-use-batcher.service';
import { DeleteApiKeyUseCase } from './application/api-keys/delete-api-key.use-case';
import { EndSessionsUseCase } from './application/sessions/end-sessions.use-case';
import { ListApiKeysUseCase } from './application/api-keys/list-api-keys.use-case';
import { ListSessionsUseCase } from './application/sessions/list-sessions.use-case';
import { ResetMainApiKeyUseCase } from './application/api-keys/reset-main-api-key.use-case';
import { CreateApiKeyUseCase } from './application/api-keys/create-api-key.use-case';
import { CreateUserUseCase } from './application/users/create-user.use-case';
import { CredentialIssuer } from './application/credentials/credential-issuer.service';
import { CredentialSessionRevocation } from './application/sessions/credential-session-revocation.service';
import { GetCurrentUserUseCase } from './application/users/get-current-user.use-case';
import { LogoutUseCase } from './application/sessions/logout.use-case';
import { PasswordLoginUseCase } from './application/credentials/password-login.use-case';
import { RevokeUserSessionsUseCase } from './application/sessions/revoke-user-sessions.use-case';
import { CredentialRepository } from './application/ports/credential.repository.port';
import { TeamRepository } from './application/ports/team.repository.port';
import { ApiKeyRepository } from './application/ports/api-key.repository.port';
import { CredentialCache } from './application/ports/credential-cache.port';
import { CredentialUseRepository } from './application/ports/credential-use.repository.port';
import { SessionRepository } from './application/ports/session.repository.port';
import { LoginThrottle } from './application/ports/login-throttle.port';
import { PasswordHasher } from './application/ports/password-hasher.port';
import { SessionRevocation } from './application/ports/session-revocation.port';
import { UserRepository } from './application/ports/user.repository.port';
import { ACCOUNTS_ERRORS } from './domain/errors';
import { ApiKeysController } from './http/api-keys.controller';
import { LoginController } from './http/login.controller';
import { LogoutController } from './http/logout.controller';
import { SessionsController } from './http/sessions.controller';
import { UsersController } from './http/users.controller';
import { TeamsFixtureLoader, UsersFixtureLoader } from './infrastructure/accounts-fixture.loaders';
import { Argon2PasswordHasher } from './infrastructure/argon2-password-hasher';
import { PostgresApiKeyRepository } from './infrastructure/persistence/postgres-api-key.repository';
import { PostgresCredentialUseRepository } from './infrastructure/persistence/postgres-credential-use.repository';
import { PostgresCredentialRepository } from './infrastructure/persistence/postgres-credential.repository';
import { PostgresSessionRepository } from './infrastructure/persistence/postgres-session.repository';
import { PostgresTeamRepository } from './infrastructure/persistence/postgres-team.repository';
import { PostgresUserRepository } from './infrastructure/persistence/postgres-user.repository';
import { RedisCredentialCache } from './infrastructure/redis/redis-credential-cache';
import { RedisLoginThrottle } from './infrastructure/redis/redis-login-throttle';
import { AccountsCommands } from './operator/accounts.commands';
import { TeamStore } from './application/ports/team-store.port';
import { PostgresTeamStore } from './infrastructure/persistence/postgres-team.store';
import { TeamsController } from './http/teams.controller';
import { TeamInvitationsController } from './http/team-invitations.controller';
import { InviteTeamMemberUseCase } from './application/teams/invite-team-member.use-case';
import { ListTeamInvitationsUseCase } from './application/teams/list-team-invitations.use-case';
import { AcceptTeamInvitationUseCase } from './application/teams/accept-team-invitation.use-case';
import { DeclineTeamInvitationUseCase } from './application/teams/decline-team-invitation.use-case';
import { RevokeTeamInvitationUseCase } from './application/teams/revoke-team-invitation.use-case';
import { CreateMemberTeamKeyUseCase } from './application/teams/create-member-team-key.use-case';
import { TeamInvitee } from './application/teams/team-invitee.service';
import { SetTeamPolicyUseCase } from './application/teams/set-team-policy.use-case';
import { TeamInvitationLetters } from './application/teams/team-invitation-letters.service';
import { TeamCallerResolver } from './application/teams/team-caller.service';
import { TeamRoleDocument } from './application/teams/team-role-document.service';
import { CreateTeamUseCase } from './application/teams/create-team.use-case';
import { DestroyTeamUseCase } from './application/teams/destroy-team.use-case';
import { ListTeamMembersUseCase } from './application/teams/list-team-members.use-case';
import { RemoveTeamMemberUseCase } from './application/teams/remove-team-member.use-case';
import { SetTeamMemberRoleUseCase } from './application/teams/set-team-member-role.use-case';
import { CreateTeamRoleUseCase } from './application/teams/create-team-role.use-case';
import { ListTeamRolesUseCase } from './application/teams/list-team-roles.use-case';
import { UpdateTeamRoleUseCase } from './application/teams/update-team-role.use-case';
import { RemoveTeamRoleUseCase } from './application/teams/remove-team-role.use-case';
import { TeamContacts } from './application/teams/team-contacts.service';
import { ChangeUserSettingsUseCase } from './application/users/change-user-settings.use-case';

/** The database index of a Redis URL: pub/sub channels are shared by all of a server's databases. */
function redisDatabase(url: string): number {
  const path = new URL(url).pathname;
  return path.length > 1 ? Number(path.slice(1)) : 0;
}

@Module({
  imports: [MessagingModule],
  controllers: [
    UsersController,
    LoginController,
    LogoutController,
    ApiKeysController,
    SessionsController,
    TeamsController,
    TeamInvitationsController,
  ],
  providers: [
    { provide: UserRepository, useClass: PostgresUserRepository },
    { provide: CredentialRepository, useClass: PostgresCredentialRepository },
    { provide: ApiKeyRepository, useClass: PostgresApiKeyRepository },
    { provide: SessionRepository, useClass: PostgresSessionRepository },
    { provide: CredentialUseRepository, useClass: PostgresCredentialUseRepository },
    { provide: TeamRepository, useClass: PostgresTeamRepository },
    { provide: TeamStore, useClass: PostgresTeamStore },
    TeamCallerResolver,
    TeamRoleDocument,
    TeamContacts,
    CreateTeamUseCase,
    DestroyTeamUseCase,
    ListTeamMembersUseCase,
    RemoveTeamMemberUseCase,
    SetTeamMemberRoleUseCase,
    CreateTeamRoleUseCase,
    ListTeamRolesUseCase,
    UpdateTeamRoleUseCase,
    RemoveTeamRoleUseCase,
    SetTeamPolicyUseCase,
    InviteTeamMemberUseCase,
    ListTeamInvitationsUseCase,
    AcceptTeamInvitationUseCase,
    DeclineTeamInvitationUseCase,
    RevokeTeamInvitationUseCase,
    CreateMemberTeamKeyUseCase,
    TeamInvitee,
    TeamInvitationLetters,
    {
      provide: TeamInvitationMailSettings,
      inject: [Environment],
      useFactory: (env: Environment) => {
        const read = new ConfigReader(env);
        const settings = new TeamInvitationMailSettings();
        settings.brand = read.string('CODE_MESSAGE_BRAND', settings.brand);
        read.done();
        return settings;
      },
    },
    { provide: TeamInvitationMail, useClass: MessagingTeamInvitationMail },
    DeliverTeamInvitationUseCase,
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    {
      provide: LoginThrottle,
      inject: [Redis, PlatformConfig],
      useFactory: (redis: Redis, config: PlatformConfig) =>
        new RedisLoginThrottle(redis, {
          enabled: config.rateLimits.enabled,
          windowSeconds: 15 * 60,
          // docs/decisions.md "Password login": a user-addr count is part of its user's.
          maxFailures: { user: 10, 'user-addr': 10, login: 10, addr: 50, device: 10 },
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
    ChangeUserSettingsUseCase,
    CreateUserUseCase,
    CreateApiKeyUseCase,
    PasswordLoginUseCase,
    { provide: SessionRevocation, useClass: CredentialSessionRevocation },
    LogoutUseCase,
    RevokeUserSessionsUseCase,
    CallerGrant,
    CreateOwnApiKeyUseCase,
    ListApiKeysUseCase,
    DeleteApiKeyUseCase,
    ResetMainApiKeyUseCase,
    ListSessionsUseCase,
    EndSessionsUseCase,
    CredentialUseBatcher,
    { provide: CredentialUseRecorder, useExisting: CredentialUseBatcher },
    UsersFixtureLoader,
    TeamsFixtureLoader,
    AccountsCommands,
  ],
  exports: [
    CredentialVerifier,
    CredentialUseRecorder,
    UserRepository,
    CredentialIssuer,
    SessionRevocation,
    CreateUserUseCase,
    GetCurrentUserUseCase,
    TeamInvitationLetters,
    TeamContacts,
  ],
})
export class AccountsModule implements OnModuleInit {
  /**
   * Accounts whose password login hands over to a second factor: `implementers` are the
   * modules that export the ports accounts owns and other contexts implement:
   * LoginSecondFactor (identity-tfa: the login challenge), and account security's
   * TrustedDeviceLogin (a remembered device stands in for the factor), SessionAudit
   * (sessions ended are recorded), ApiKeyAudit and TeamAudit (key and team changes are
   * recorded and mailed) and TrustedDeviceRevocation (signing out everywhere revokes the
   * devices too). Accounts never imports the contexts that implement them (they depend on
   * accounts), so the context that sees them all (identity-tfa) composes this once and the
   * apps import its result in place of AccountsModule. Without it, a login of an account
   * with 2FA answers service_unavailable, no device is trusted and nothing is recorded.
   */
  static withSecondFactor(...implementers: Type[]): DynamicModule {
    return { module: AccountsModule, imports: implementers };
  }

  constructor(
    private readonly errors: ErrorCatalog,
    private readonly fixtures: FixtureRegistry,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly usersFixture: UsersFixtureLoader,
    private readonly teamsFixture: TeamsFixtureLoader,
    private readonly commands: AccountsCommands,
    private readonly messageHandlers: MessageHandlers,
    private readonly deliverInvitation: DeliverTeamInvitationUseCase,
  ) {
    errors.register(ACCOUNTS_ERRORS);
  }

  onModuleInit(): void {
    this.fixtures.register(this.usersFixture);
    this.fixtures.register(this.teamsFixture);
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
    // The invitation's mail job: run by messaging's worker where one runs (apps/worker, and
    // the api unless RUN_WORKER=false); elsewhere the registration is never read.
    this.messageHandlers.handle<TeamInvitationJob>(TEAM_INVITATION_JOB, (job, attempt) =>
      this.deliverInvitation.execute(job, attempt),
    );
  }
}
