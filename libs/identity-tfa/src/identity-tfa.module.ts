import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule, LoginSecondFactor } from '@app/accounts';
import { ErrorCatalog, OperatorCommandRegistry } from '@app/platform';
import { AddMethodGate } from './application/add-method-gate.service';
import { BackupCodeIssuer } from './application/backup-code-issuer.service';
import { BackupCodeVerifier } from './application/backup-code-verifier.service';
import { ChallengeCodeVerifier } from './application/challenge-code-verifier.service';
import { ChallengeService } from './application/challenge.service';
import { CompleteLoginUseCase } from './application/complete-login.use-case';
import { ConfirmMethodAuthorizationUseCase } from './application/confirm-method-authorization.use-case';
import { ConfirmNewMethodUseCase } from './application/confirm-new-method.use-case';
import { DeliverCodeUseCase } from './application/deliver-code.use-case';
import { GetTfaStatusUseCase } from './application/get-tfa-status.use-case';
import { MethodRecords } from './application/method-records.service';
import { OpenLoginChallengeUseCase } from './application/open-login-challenge.use-case';
import { RegenerateBackupCodesUseCase } from './application/regenerate-backup-codes.use-case';
import { RemoveMethodUseCase } from './application/remove-method.use-case';
import { ResendSmsCodeUseCase } from './application/resend-sms-code.use-case';
import { SecondFactorVerifier } from './application/second-factor-verifier.service';
import { SendEmailCodeUseCase } from './application/send-email-code.use-case';
import { SendSmsCodeUseCase } from './application/send-sms-code.use-case';
import { SetupTotpUseCase } from './application/setup-totp.use-case';
import { SmsBudget } from './application/sms-budget.service';
import { StartMethodAuthorizationUseCase } from './application/start-method-authorization.use-case';
import { TfaUserLookup } from './application/tfa-user-lookup.service';
import { TotpVerifier } from './application/totp-verifier.service';
import { UpdateMethodUseCase } from './application/update-method.use-case';
import { VerificationFlow } from './application/verification-flow.service';
import { TFA_ERRORS } from './domain/errors';
import { TfaDeprecatedController } from './http/tfa-deprecated.controller';
import { TfaController } from './http/tfa.controller';
import { CodeDeliveryWorker } from './infrastructure/delivery/code-delivery.worker';
import { TfaInfrastructureModule } from './infrastructure/tfa-infrastructure.module';
import { TfaCommands } from './operator/tfa.commands';

/**
 * The password login's second step: accounts' LoginSecondFactor port, bound to the use
 * case that opens a login challenge. It imports no accounts module (the use case is handed
 * the user), so AccountsModule can import it without a cycle.
 */
@Module({
  imports: [TfaInfrastructureModule],
  providers: [
    ChallengeService,
    MethodRecords,
    { provide: LoginSecondFactor, useClass: OpenLoginChallengeUseCase },
  ],
  exports: [LoginSecondFactor, ChallengeService, MethodRecords],
})
export class TfaLoginSecondFactorModule {}

/**
 * Accounts with this context's login challenge as its password login's second step. The
 * apps import this in place of AccountsModule, and IdentityTfaModule imports the same
 * object, so there is one accounts module in an app, whichever imports it first.
 */
export const AccountsWithTfaModule: DynamicModule = AccountsModule.withSecondFactor(
  TfaLoginSecondFactorModule,
);

/** Two-factor authentication: the 2FA routes, their use cases, and `manage outbox:list`. */
@Module({
  imports: [AccountsWithTfaModule, TfaInfrastructureModule, TfaLoginSecondFactorModule],
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

/** Code delivery processors (BullMQ, in-process when embedded); in apps/worker and, unless RUN_WORKER=false, the api. */
@Module({
  imports: [TfaInfrastructureModule],
  providers: [DeliverCodeUseCase, CodeDeliveryWorker],
})
export class TfaDeliveryWorkerModule {}
