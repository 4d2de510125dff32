import { Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { Clock, Environment, Metrics, TransactionalEntityManager } from '@app/platform';
import { AuthorizationStore } from '../application/ports/authorization.store.port';
import { BackupCodeRepository } from '../application/ports/backup-code.repository.port';
import { ChallengeStore } from '../application/ports/challenge.store.port';
import { CodeDeliveryProvider } from '../application/ports/code-delivery.provider.port';
import { CodeDeliveryQueue } from '../application/ports/code-delivery.queue.port';
import { SmsSendingPolicy } from '../application/ports/sms-sending-policy.port';
import { TfaMethodRepository } from '../application/ports/tfa-method.repository.port';
import { VerificationLedger } from '../application/ports/verification-ledger.port';
import { SecurityEventRepository } from '../application/ports/security-event.repository.port';
import { SecurityNoticeQueue } from '../application/ports/security-notice.queue.port';
import { SecurityNoticeRepository } from '../application/ports/security-notice.repository.port';
import { TrustedDeviceRepository } from '../application/ports/trusted-device.repository.port';
import { TfaSettings } from '../domain/tfa-policy';
import { RedisSmsSendCounters } from './anti-fraud/redis-sms-send-counters';
import { SmsAntiFraudPolicy } from './anti-fraud/sms-anti-fraud.policy';
import {
  loadSmsAntiFraudSettings,
  SmsAntiFraudSettings,
} from './anti-fraud/sms-anti-fraud-settings';
import { CodeSenders, createCodeSenders } from './delivery-providers/code-sender.factory';
import { DeliverySettings, loadDeliverySettings } from './delivery-providers/delivery-settings';
import { ExactlyOnceDelivery } from './delivery-providers/exactly-once-delivery';
import { RedisDeliveryLedger } from './delivery-providers/redis-delivery-ledger';
import { BullmqCodeDeliveryQueue } from './delivery/bullmq-code-delivery.queue';
import { BullmqSecurityNoticeQueue } from './delivery/bullmq-security-notice.queue';
import { OutboxCodeSender, OutboxReader } from './delivery/outbox-code.sender';
import { PostgresVerificationLedgerRepository } from './persistence/postgres-verification-ledger.repository';
import { PostgresBackupCodeRepository } from './persistence/postgres-backup-code.repository';
import { PostgresTfaMethodRepository } from './persistence/postgres-tfa-method.repository';
import { PostgresSecurityEventRepository } from './persistence/postgres-security-event.repository';
import { PostgresSecurityNoticeRepository } from './persistence/postgres-security-notice.repository';
import { PostgresTrustedDeviceRepository } from './persistence/postgres-trusted-device.repository';
import { RedisAuthorizationStore } from './redis/redis-authorization-store';
import { RedisChallengeStore } from './redis/redis-challenge-store';
import { loadTfaSettings } from './tfa-config';

/** A lease outlives the slowest provider request, so a live attempt is never second-guessed. */
function leaseMs(settings: DeliverySettings): number {
  const slowest = Math.max(settings.twilio?.timeoutMs ?? 0, settings.smtp?.timeoutMs ?? 0, 1_000);
  return Math.max(settings.jobLockMs, slowest * 2);
}

/**
 * Binds the 2FA ports (and the account-security stores: events, notices, trusted devices)
 * to PostgreSQL, Redis, BullMQ and the providers; shared by the api and the worker.
 */
@Module({
  providers: [
    { provide: TfaSettings, inject: [Environment], useFactory: loadTfaSettings },
    { provide: DeliverySettings, inject: [Environment], useFactory: loadDeliverySettings },
    { provide: SmsAntiFraudSettings, inject: [Environment], useFactory: loadSmsAntiFraudSettings },
    { provide: TfaMethodRepository, useClass: PostgresTfaMethodRepository },
    { provide: BackupCodeRepository, useClass: PostgresBackupCodeRepository },
    { provide: VerificationLedger, useClass: PostgresVerificationLedgerRepository },
    { provide: SecurityEventRepository, useClass: PostgresSecurityEventRepository },
    { provide: SecurityNoticeRepository, useClass: PostgresSecurityNoticeRepository },
    { provide: TrustedDeviceRepository, useClass: PostgresTrustedDeviceRepository },
    { provide: ChallengeStore, useClass: RedisChallengeStore },
    { provide: AuthorizationStore, useClass: RedisAuthorizationStore },
    {
      provide: RedisDeliveryLedger,
      inject: [Redis],
      useFactory: (redis: Redis) => new RedisDeliveryLedger(redis),
    },
    { provide: CodeDeliveryQueue, useClass: BullmqCodeDeliveryQueue },
    { provide: SecurityNoticeQueue, useClass: BullmqSecurityNoticeQueue },
    {
      provide: CodeSenders,
      inject: [DeliverySettings, Clock, TransactionalEntityManager],
      useFactory: (settings: DeliverySettings, clock: Clock, tx: TransactionalEntityManager) =>
        createCodeSenders(settings, clock, () => new OutboxCodeSender(tx, clock, settings.brand)),
    },
    {
      provide: CodeDeliveryProvider,
      inject: [CodeSenders, RedisDeliveryLedger, Clock, Metrics, DeliverySettings],
      useFactory: (
        senders: CodeSenders,
        ledger: RedisDeliveryLedger,
        clock: Clock,
        metrics: Metrics,
        settings: DeliverySettings,
      ) => new ExactlyOnceDelivery(senders, ledger, clock, metrics, leaseMs(settings)),
    },
    RedisSmsSendCounters,
    { provide: SmsSendingPolicy, useClass: SmsAntiFraudPolicy },
    OutboxReader,
  ],
  exports: [
    TfaSettings,
    DeliverySettings,
    TfaMethodRepository,
    BackupCodeRepository,
    VerificationLedger,
    SecurityEventRepository,
    SecurityNoticeRepository,
    TrustedDeviceRepository,
    ChallengeStore,
    AuthorizationStore,
    CodeDeliveryQueue,
    SecurityNoticeQueue,
    CodeDeliveryProvider,
    SmsSendingPolicy,
    OutboxReader,
  ],
})
export class TfaInfrastructureModule implements OnApplicationShutdown {
  constructor(private readonly senders: CodeSenders) {}

  /** Closes pooled SMTP connections. */
  onApplicationShutdown(): void {
    this.senders.close();
  }
}
