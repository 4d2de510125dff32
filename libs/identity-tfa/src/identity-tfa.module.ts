import { Global, Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule, LoginSecondFactor } from '@app/accounts';
import { ErrorCatalog, OperatorCommandRegistry } from '@app/platform';
import { AddMethodGate } from './application/add-method-gate';
import { BackupCodeIssuer } from './application/backup-code-issuer';
import { ChallengeService } from './application/challenge.service';
import { MethodRecords } from './application/method-records';
import { CompleteLoginUseCase } from './application/complete-login.use-case';
import { ConfirmMethodAuthorizationUseCase } from './application/confirm-method-authorization.use-case';
import { ConfirmNewMethodUseCase } from './application/confirm-new-method.use-case';
import { DeliverCodeUseCase } from './application/deliver-code.use-case';
import { GetTfaStatusUseCase } from './application/get-tfa-status.use-case';
import { OpenLoginChallenge } from './application/open-login-challenge';
import { RegenerateBackupCodesUseCase } from './application/regenerate-backup-codes.use-case';
import { RemoveMethodUseCase } from './application/remove-method.use-case';
import { ResendSmsCodeUseCase } from './application/resend-sms-code.use-case';
import { SecondFactorVerifier } from './application/second-factor-verifier';
import { SendEmailCodeUseCase } from './application/send-email-code.use-case';
import { SendSmsCodeUseCase } from './application/send-sms-code.use-case';
import { SetupTotpUseCase } from './application/setup-totp.use-case';
import { StartMethodAuthorizationUseCase } from './application/start-method-authorization.use-case';
import { TfaUserLookup } from './application/tfa-user-lookup';
import { UpdateMethodUseCase } from './application/update-method.use-case';
import { TfaDeprecatedController } from './http/tfa-deprecated.controller';
import { TFA_ERRORS } from './domain/errors';
import { TfaResponses } from './http/tfa-responses';
import { TfaController } from './http/tfa.controller';
import { CodeDeliveryWorker } from './infrastructure/delivery/code-delivery.worker';
import { TfaInfrastructureModule } from './infrastructure/tfa-infrastructure.module';
import { TfaCommands } from './operator/tfa.commands';

/**
 * Two-factor authentication. Global because it provides the accounts context's
 * LoginSecondFactor port (the password login opens its challenge through it).
 */
@Global()
@Module({
  imports: [AccountsModule, TfaInfrastructureModule],
  controllers: [TfaController, TfaDeprecatedController],
  providers: [
    ChallengeService,
    SecondFactorVerifier,
    MethodRecords,
    AddMethodGate,
    BackupCodeIssuer,
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
    OpenLoginChallenge,
    { provide: LoginSecondFactor, useExisting: OpenLoginChallenge },
    TfaResponses,
    TfaCommands,
  ],
  exports: [LoginSecondFactor],
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
