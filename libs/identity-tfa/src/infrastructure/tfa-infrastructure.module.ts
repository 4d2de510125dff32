import { Module } from '@nestjs/common';
import { AccountSecurityPortsModule } from '@app/account-security';
import { MessagingModule } from '@app/messaging';
import { Environment } from '@app/platform';
import { AuthorizationStore } from '../application/ports/authorization.store.port';
import { BackupCodeRepository } from '../application/ports/backup-code.repository.port';
import { ChallengeStore } from '../application/ports/challenge.store.port';
import { CodeDeliveryQueue } from '../application/ports/code-delivery.queue.port';
import { SmsSendingPolicy } from '../application/ports/sms-sending-policy.port';
import { EmailSendingPolicy } from '../application/ports/email-sending-policy.port';
import { TfaMethodRepository } from '../application/ports/tfa-method.repository.port';
import { VerificationLedger } from '../application/ports/verification-ledger.port';
import { TfaSettings } from '../domain/tfa-policy';
import { RedisSmsSendCounters } from './anti-fraud/redis-sms-send-counters';
import {
  EmailSendLimits,
  EmailSendLimitsPolicy,
  loadEmailSendLimits,
} from './anti-fraud/email-send-limits';
import { SmsAntiFraudPolicy } from './anti-fraud/sms-anti-fraud.policy';
import {
  loadSmsAntiFraudSettings,
  SmsAntiFraudSettings,
} from './anti-fraud/sms-anti-fraud-settings';
import { MessagingCodeDeliveryQueue } from './messaging/messaging-code-delivery.queue';
import { PostgresVerificationLedgerRepository } from './persistence/postgres-verification-ledger.repository';
import { PostgresBackupCodeRepository } from './persistence/postgres-backup-code.repository';
import { PostgresTfaMethodRepository } from './persistence/postgres-tfa-method.repository';
import { RedisAuthorizationStore } from './redis/redis-authorization-store';
import { RedisChallengeStore } from './redis/redis-challenge-store';
import { loadTfaSettings } from './tfa-config';

/**
 * Binds the 2FA ports to PostgreSQL, Redis and messaging's queue; shared by the api and
 * the worker. The verification ledger takes account security's per-user lock.
 */
@Module({
  imports: [MessagingModule, AccountSecurityPortsModule],
  providers: [
    { provide: TfaSettings, inject: [Environment], useFactory: loadTfaSettings },
    { provide: SmsAntiFraudSettings, inject: [Environment], useFactory: loadSmsAntiFraudSettings },
    { provide: TfaMethodRepository, useClass: PostgresTfaMethodRepository },
    { provide: BackupCodeRepository, useClass: PostgresBackupCodeRepository },
    { provide: VerificationLedger, useClass: PostgresVerificationLedgerRepository },
    { provide: ChallengeStore, useClass: RedisChallengeStore },
    { provide: AuthorizationStore, useClass: RedisAuthorizationStore },
    { provide: CodeDeliveryQueue, useClass: MessagingCodeDeliveryQueue },
    RedisSmsSendCounters,
    { provide: SmsSendingPolicy, useClass: SmsAntiFraudPolicy },
    { provide: EmailSendLimits, inject: [Environment], useFactory: loadEmailSendLimits },
    { provide: EmailSendingPolicy, useClass: EmailSendLimitsPolicy },
  ],
  exports: [
    MessagingModule,
    TfaSettings,
    TfaMethodRepository,
    BackupCodeRepository,
    VerificationLedger,
    ChallengeStore,
    AuthorizationStore,
    CodeDeliveryQueue,
    SmsSendingPolicy,
    EmailSendingPolicy,
  ],
})
export class TfaInfrastructureModule {}
