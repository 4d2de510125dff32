import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import {
  AccountSecurityModule,
  AccountSecurityPortsModule,
  AccountSecurityWorkerModule,
  SecondFactorEraser,
} from '@app/account-security';
import { AccountsModule, LoginSecondFactor } from '@app/accounts';
import { MessageHandlers, MessagingWorkerModule } from '@app/messaging';
import { ErrorCatalog, OperatorCommandRegistry } from '@app/platform';
import { AddMethodGate } from './application/methods/add-method-gate.service';
import { BackupCodeIssuer } from './application/backup-codes/backup-code-issuer.service';
import { BackupCodeVerifier } from './application/verification/backup-code-verifier.service';
import { ChallengeCodeVerifier } from './application/verification/challenge-code-verifier.service';
import { ChallengeService } from './application/challenges/challenge.service';
import { CompleteLoginUseCase } from './application/login/complete-login.use-case';
import { ConfirmMethodAuthorizationUseCase } from './application/methods/confirm-method-authorization.use-case';
import { ConfirmNewMethodUseCase } from './application/methods/confirm-new-method.use-case';
import { DeliverCodeUseCase } from './application/challenges/deliver-code.use-case';
import { EraseSecondFactorUseCase } from './application/methods/erase-second-factor.use-case';
import { GetTfaStatusUseCase } from './application/methods/get-tfa-status.use-case';
import { MethodRecords } from './application/methods/method-records.service';
import { OpenLoginChallengeUseCase } from './application/login/open-login-challenge.use-case';
import { RegenerateBackupCodesUseCase } from './application/backup-codes/regenerate-backup-codes.use-case';
import { RemoveMethodUseCase } from './application/methods/remove-method.use-case';
import { ResendSmsCodeUseCase } from './application/challenges/resend-sms-code.use-case';
import { SecondFactorVerifier } from './application/verification/second-factor-verifier.service';
import { SendEmailCodeUseCase } from './application/challenges/send-email-code.use-case';
import { SendSmsCodeUseCase } from './application/challenges/send-sms-code.use-case';
import { SetupTotpUseCase } from './application/methods/setup-totp.use-case';
import { SmsBudget } from './application/challenges/sms-budget.service';
import { EmailBudget } from './application/challenges/email-budget.service';
import { StartMethodAuthorizationUseCase } from './application/methods/start-method-authorization.use-case';
import { TfaUserLookup } from './application/login/tfa-user-lookup.service';
import { TotpVerifier } from './application/verification/totp-verifier.service';
import { UpdateMethodUseCase } from './application/methods/update-method.use-case';
import { VerificationFlow } from './application/verification/verification-flow.service';
import { CODE_DELIVERY_JOB, CodeDeliveryJob } from './application/ports/code-delivery.queue.port';
import { TFA_ERRORS } from './domain/errors';
import { TfaDeprecatedController } from './http/tfa-deprecated.controller';
import { TfaController } from './http/tfa.controller';
import { TfaInfrastructureModule } from './infrastructure/tfa-infrastructure.module';
import { TfaCommands } from './operator/tfa.commands';

/**
 * The ports of other contexts this context implements: accounts' LoginSecondFactor (the
 * password login's second step opens a login challenge) and account security's
 * SecondFactorEraser (the operator's reset removes the methods and backup codes). It
 * imports no accounts or account-security module that needs it (each use case is handed
 * what it needs), so both can import it without a cycle.
 */
@Module({
  imports: [TfaInfrastructureModule],
  providers: [
    ChallengeService,
    MethodRecords,
    { provide: LoginSecondFactor, useClass: OpenLoginChallengeUseCase },
    { provide: SecondFactorEraser, useClass: EraseSecondFactorUseCase },
  ],
  exports: [LoginSecondFactor, SecondFactorEraser, ChallengeService, MethodRecords],
})
export class TfaPortsModule {}

/**
 * Accounts with the implementations of its ports: this context's login challenge, and
 * account security's trusted devices and records of sessions, keys and teams. The apps
 * import this in place of AccountsModule, and every module that needs accounts imports the
 * same object, so there is one accounts module in an app, whichever imports it first.
 * identity-tfa composes it because it is the context that sees both implementers.
 */
export const AccountsWithTfaModule: DynamicModule = AccountsModule.withSecondFactor(
  TfaPortsModule,
  AccountSecurityPortsModule,
);

/** Account security's routes and commands, on the composed accounts and this context's eraser. */
export const AccountSecurityWithTfaModule: DynamicModule = AccountSecurityModule.compose(
  AccountsWithTfaModule,
  TfaPortsModule,
);

/** Account security's notice delivery, on the composed accounts. */
export const AccountSecurityWorkerWithTfaModule: DynamicModule =
  AccountSecurityWorkerModule.withAccounts(AccountsWithTfaModule);

/**
 * Two-factor authentication: the 2FA routes, their use cases, and the `manage` command
 * outbox:list.
 */
@Module({
  imports: [
    AccountsWithTfaModule,
    TfaInfrastructureModule,
    TfaPortsModule,
    AccountSecurityPortsModule,
  ],
  controllers: [TfaController, TfaDeprecatedController],
  providers: [
    VerificationFlow,
    TotpVerifier,
    ChallengeCodeVerifier,
    BackupCodeVerifier,
    SecondFactorVerifier,
    AddMethodGate,
    BackupCodeIssuer,
    SmsBudget,
    EmailBudget,
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
 * The delivery of codes: its job handler, registered with messaging's worker (BullMQ,
 * in-process when embedded); in apps/worker and, unless RUN_WORKER=false, the api.
 * Security notices are account security's (AccountSecurityWorkerWithTfaModule).
 */
@Module({
  imports: [AccountsWithTfaModule, TfaInfrastructureModule, MessagingWorkerModule],
  providers: [DeliverCodeUseCase],
})
export class TfaDeliveryWorkerModule implements OnModuleInit {
  constructor(
    private readonly handlers: MessageHandlers,
    private readonly deliverCode: DeliverCodeUseCase,
  ) {}

  onModuleInit(): void {
    this.handlers.handle<CodeDeliveryJob>(CODE_DELIVERY_JOB, (job, attempt) =>
      this.deliverCode.execute(job, attempt),
    );
  }
}
