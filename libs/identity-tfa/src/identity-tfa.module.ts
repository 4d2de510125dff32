import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule, LoginSecondFactor, SessionAudit, TrustedDeviceLogin } from '@app/accounts';
import { ErrorCatalog, OperatorCommandRegistry } from '@app/platform';
import { AcceptTrustedDeviceUseCase } from './application/accept-trusted-device.use-case';
import { AddMethodGate } from './application/add-method-gate.service';
import { BackupCodeIssuer } from './application/backup-code-issuer.service';
import { BackupCodeVerifier } from './application/backup-code-verifier.service';
import { ChallengeCodeVerifier } from './application/challenge-code-verifier.service';
import { ChallengeService } from './application/challenge.service';
import { CompleteLoginUseCase } from './application/complete-login.use-case';
import { ConfirmMethodAuthorizationUseCase } from './application/confirm-method-authorization.use-case';
import { ConfirmNewMethodUseCase } from './application/confirm-new-method.use-case';
import { DeliverCodeUseCase } from './application/deliver-code.use-case';
import { DeliverSecurityNoticeUseCase } from './application/deliver-security-notice.use-case';
import { DeviceTrust } from './application/device-trust.service';
import { GetTfaStatusUseCase } from './application/get-tfa-status.use-case';
import { ListSecurityEventsUseCase } from './application/list-security-events.use-case';
import { ListTrustedDevicesUseCase } from './application/list-trusted-devices.use-case';
import { MethodRecords } from './application/method-records.service';
import { OpenLoginChallengeUseCase } from './application/open-login-challenge.use-case';
import { PruneSecurityEventsUseCase } from './application/prune-security-events.use-case';
import { RecordSessionsEndedUseCase } from './application/record-sessions-ended.use-case';
import { RegenerateBackupCodesUseCase } from './application/regenerate-backup-codes.use-case';
import { RemoveMethodUseCase } from './application/remove-method.use-case';
import { ResendSmsCodeUseCase } from './application/resend-sms-code.use-case';
import { ResetTwoFactorUseCase } from './application/reset-two-factor.use-case';
import { RevokeTrustedDeviceUseCase } from './application/revoke-trusted-device.use-case';
import { SecondFactorVerifier } from './application/second-factor-verifier.service';
import { SecurityEventLog } from './application/security-event-log.service';
import { SendEmailCodeUseCase } from './application/send-email-code.use-case';
import { SendSmsCodeUseCase } from './application/send-sms-code.use-case';
import { SetupTotpUseCase } from './application/setup-totp.use-case';
import { SmsBudget } from './application/sms-budget.service';
import { StartMethodAuthorizationUseCase } from './application/start-method-authorization.use-case';
import { SweepSecurityNoticesUseCase } from './application/sweep-security-notices.use-case';
import { TfaUserLookup } from './application/tfa-user-lookup.service';
import { TotpVerifier } from './application/totp-verifier.service';
import { UpdateMethodUseCase } from './application/update-method.use-case';
import { VerificationFlow } from './application/verification-flow.service';
import { TFA_ERRORS } from './domain/errors';
import { TfaDeprecatedController } from './http/tfa-deprecated.controller';
import { TfaSecurityController } from './http/tfa-security.controller';
import { TfaController } from './http/tfa.controller';
import { CodeDeliveryWorker } from './infrastructure/delivery/code-delivery.worker';
import { SecurityNoticeSweeper } from './infrastructure/delivery/security-notice.sweeper';
import { TfaInfrastructureModule } from './infrastructure/tfa-infrastructure.module';
import { TfaCommands } from './operator/tfa.commands';

/**
 * The accounts ports this context implements: LoginSecondFactor (the password login's
 * second step opens a login challenge), TrustedDeviceLogin (a remembered device stands in
 * for it) and SessionAudit (sessions accounts ends become security events). It imports no
 * accounts module (each use case is handed what it needs), so AccountsModule can import it
 * without a cycle.
 */
@Module({
  imports: [TfaInfrastructureModule],
  providers: [
    ChallengeService,
    MethodRecords,
    SecurityEventLog,
    DeviceTrust,
    { provide: LoginSecondFactor, useClass: OpenLoginChallengeUseCase },
    { provide: TrustedDeviceLogin, useClass: AcceptTrustedDeviceUseCase },
    { provide: SessionAudit, useClass: RecordSessionsEndedUseCase },
  ],
  exports: [
    LoginSecondFactor,
    TrustedDeviceLogin,
    SessionAudit,
    ChallengeService,
    MethodRecords,
    SecurityEventLog,
    DeviceTrust,
  ],
})
export class TfaAccountsPortsModule {}

/**
 * Accounts with this context's implementations of its ports (the login challenge, trusted
 * devices, the record of ended sessions). The apps import this in place of AccountsModule,
 * and IdentityTfaModule and TfaDeliveryWorkerModule import the same object, so there is
 * one accounts module in an app, whichever imports it first.
 */
export const AccountsWithTfaModule: DynamicModule =
  AccountsModule.withSecondFactor(TfaAccountsPortsModule);

/**
 * Two-factor authentication: the 2FA and account-security routes, their use cases, and
 * the `manage` commands (outbox:list, user:reset-2fa, tfa:prune-events).
 */
@Module({
  imports: [AccountsWithTfaModule, TfaInfrastructureModule, TfaAccountsPortsModule],
  controllers: [TfaController, TfaDeprecatedController, TfaSecurityController],
  providers: [
    VerificationFlow,
    TotpVerifier,
    ChallengeCodeVerifier,
    BackupCodeVerifier,
    SecondFactorVerifier,
    AddMethodGate,
    BackupCodeIssuer,
    SmsBudget,
    TfaUserLookup,
    GetTfaStatusUseCase,
    SetupTotpUseCase,
    CompleteLoginUseCase,
    SendSmsCodeUseCase,
    ResendSmsCodeUseCase,
    SendEmailCodeUseCase,
    StartMethodAuthorizationUseCase,
    ConfirmMethodAuthorizationUseCase,
    ConfirmNewMethodUseCase,
    RemoveMethodUseCase,
    UpdateMethodUseCase,
    RegenerateBackupCodesUseCase,
    ListSecurityEventsUseCase,
    ListTrustedDevicesUseCase,
    RevokeTrustedDeviceUseCase,
    ResetTwoFactorUseCase,
    PruneSecurityEventsUseCase,
    TfaCommands,
  ],
})
export class IdentityTfaModule implements OnModuleInit {
  constructor(
    errors: ErrorCatalog,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly commands: TfaCommands,
  ) {
    errors.register(TFA_ERRORS);
  }

  onModuleInit(): void {
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
  }
}

/**
 * Delivery processors of codes and security notices, and the notice sweeper (BullMQ,
 * in-process when embedded); in apps/worker and, unless RUN_WORKER=false, the api.
 */
@Module({
  imports: [AccountsWithTfaModule, TfaInfrastructureModule],
  providers: [
    DeliverCodeUseCase,
    DeliverSecurityNoticeUseCase,
    SweepSecurityNoticesUseCase,
    CodeDeliveryWorker,
    SecurityNoticeSweeper,
  ],
})
export class TfaDeliveryWorkerModule {}
