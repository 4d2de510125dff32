import { DynamicModule, Module, OnModuleInit, Type } from '@nestjs/common';
import {
  ApiKeyAudit,
  SessionAudit,
  TeamAudit,
  TrustedDeviceLogin,
  TrustedDeviceRevocation,
} from '@app/accounts';
import { MessageHandlers, MessagingWorkerModule } from '@app/messaging';
import { ErrorCatalog, OperatorCommandRegistry } from '@app/platform';
import { AcceptTrustedDeviceUseCase } from './application/devices/accept-trusted-device.use-case';
import { AccountLookup } from './application/account-lookup.service';
import { DeliverSecurityNoticeUseCase } from './application/notices/deliver-security-notice.use-case';
import { DeviceTrust } from './application/devices/device-trust.service';
import { ListSecurityEventsUseCase } from './application/events/list-security-events.use-case';
import { ListTrustedDevicesUseCase } from './application/devices/list-trusted-devices.use-case';
import {
  SECURITY_NOTICE_JOB,
  SecurityNoticeJob,
} from './application/ports/security-notice.queue.port';
import { PruneSecurityEventsUseCase } from './application/events/prune-security-events.use-case';
import { RecordApiKeyChangeUseCase } from './application/events/record-api-key-change.use-case';
import { RecordSessionsEndedUseCase } from './application/events/record-sessions-ended.use-case';
import { RecordTeamChangeUseCase } from './application/events/record-team-change.use-case';
import { ResetTwoFactorUseCase } from './application/reset/reset-two-factor.use-case';
import { RevokeTrustedDeviceUseCase } from './application/devices/revoke-trusted-device.use-case';
import { RevokeTrustedDevicesUseCase } from './application/devices/revoke-trusted-devices.use-case';
import { SecurityEventLog } from './application/events/security-event-log.service';
import { SweepSecurityNoticesUseCase } from './application/notices/sweep-security-notices.use-case';
import { AccountSecuritySettings } from './domain/account-security-settings';
import { ACCOUNT_SECURITY_ERRORS } from './domain/errors';
import { TfaSecurityController } from './http/tfa-security.controller';
import { AccountSecurityInfrastructureModule } from './infrastructure/account-security-infrastructure.module';
import { AccountSecurityCommands } from './operator/account-security.commands';

/**
 * What other contexts record through, and the accounts ports this context implements:
 * SecurityEventLog and DeviceTrust (identity-tfa records its changes and trusts devices
 * with them), UserSecurityLock (the per-user lock its verifications hold too), and
 * accounts' TrustedDeviceLogin, TrustedDeviceRevocation, SessionAudit, ApiKeyAudit and
 * TeamAudit. It imports no accounts module (each use case is handed what it needs), so
 * AccountsModule can import it without a cycle.
 */
@Module({
  imports: [AccountSecurityInfrastructureModule],
  providers: [
    SecurityEventLog,
    DeviceTrust,
    { provide: TrustedDeviceLogin, useClass: AcceptTrustedDeviceUseCase },
    { provide: TrustedDeviceRevocation, useClass: RevokeTrustedDevicesUseCase },
    { provide: SessionAudit, useClass: RecordSessionsEndedUseCase },
    { provide: ApiKeyAudit, useClass: RecordApiKeyChangeUseCase },
    { provide: TeamAudit, useClass: RecordTeamChangeUseCase },
  ],
  exports: [
    AccountSecurityInfrastructureModule,
    SecurityEventLog,
    DeviceTrust,
    TrustedDeviceLogin,
    TrustedDeviceRevocation,
    SessionAudit,
    ApiKeyAudit,
    TeamAudit,
  ],
})
export class AccountSecurityPortsModule {}

/**
 * Account security: the security-event and trusted-device routes, their use cases, and the
 * `manage` commands (user:reset-2fa, tfa:prune-events). It needs accounts (composed with
 * the implementers of its ports) and the module that implements SecondFactorEraser; it
 * imports neither, so whoever sees both composes it once: `compose(accounts, secondFactor)`.
 */
@Module({
  imports: [AccountSecurityInfrastructureModule, AccountSecurityPortsModule],
  controllers: [TfaSecurityController],
  providers: [
    AccountLookup,
    ListSecurityEventsUseCase,
    ListTrustedDevicesUseCase,
    RevokeTrustedDeviceUseCase,
    ResetTwoFactorUseCase,
    PruneSecurityEventsUseCase,
    AccountSecurityCommands,
  ],
})
export class AccountSecurityModule implements OnModuleInit {
  static compose(accounts: DynamicModule, secondFactor: Type): DynamicModule {
    return { module: AccountSecurityModule, imports: [accounts, secondFactor] };
  }

  constructor(
    errors: ErrorCatalog,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly commands: AccountSecurityCommands,
  ) {
    errors.register(ACCOUNT_SECURITY_ERRORS);
  }

  onModuleInit(): void {
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
  }
}

/**
 * The delivery of security notices: their job handler and the sweep of notices still
 * unsent, registered with messaging's worker; in apps/worker and, unless RUN_WORKER=false,
 * the api. It reads the user's address through accounts, composed by whoever sees it:
 * `withAccounts(accounts)`.
 */
@Module({
  imports: [AccountSecurityInfrastructureModule, MessagingWorkerModule],
  providers: [DeliverSecurityNoticeUseCase, SweepSecurityNoticesUseCase],
})
export class AccountSecurityWorkerModule implements OnModuleInit {
  static withAccounts(accounts: DynamicModule): DynamicModule {
    return { module: AccountSecurityWorkerModule, imports: [accounts] };
  }

  constructor(
    private readonly handlers: MessageHandlers,
    private readonly deliverNotice: DeliverSecurityNoticeUseCase,
    private readonly sweepNotices: SweepSecurityNoticesUseCase,
    private readonly settings: AccountSecuritySettings,
  ) {}

  onModuleInit(): void {
    this.handlers.handle<SecurityNoticeJob>(SECURITY_NOTICE_JOB, (job, attempt) =>
      this.deliverNotice.execute(job, attempt),
    );
    // Notices whose job was lost between the commit and the queue (a crash, Redis away).
    this.handlers.sweep({
      what: 'pending security notices',
      everySeconds: this.settings.noticeRetrySeconds,
      run: () => this.sweepNotices.execute(),
    });
  }
}
