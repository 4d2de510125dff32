import { Module } from '@nestjs/common';
import { Environment } from '@app/platform';
import { AuthorizationStore } from '../application/ports/authorization.store.port';
import { BackupCodeRepository } from '../application/ports/backup-code.repository.port';
import { ChallengeStore } from '../application/ports/challenge.store.port';
import { CodeDeliveryQueue } from '../application/ports/code-delivery.queue.port';
import { SmsSendingPolicy } from '../application/ports/sms-sending-policy.port';
import { TfaMethodRepository } from '../application/ports/tfa-method.repository.port';
import { TfaSettings } from '../application/tfa-settings';
import { BullmqCodeDeliveryQueue } from './delivery/bullmq-code-delivery.queue';
import { OutboxReader } from './delivery/outbox-code-delivery.provider';
import { FlaggedAccountSmsPolicy } from './flagged-account-sms-policy';
import { TypeormBackupCodeRepository } from './persistence/typeorm-backup-code.repository';
import { TypeormTfaMethodRepository } from './persistence/typeorm-tfa-method.repository';
import { RedisAuthorizationStore } from './redis/redis-authorization.store';
import { RedisChallengeStore } from './redis/redis-challenge.store';
import { loadTfaSettings } from './tfa-config';

/** Binds the 2FA ports to PostgreSQL, Redis and BullMQ; shared by the api and the worker. */
@Module({
  providers: [
    { provide: TfaSettings, inject: [Environment], useFactory: loadTfaSettings },
    { provide: TfaMethodRepository, useClass: TypeormTfaMethodRepository },
    { provide: BackupCodeRepository, useClass: TypeormBackupCodeRepository },
    { provide: ChallengeStore, useClass: RedisChallengeStore },
    { provide: AuthorizationStore, useClass: RedisAuthorizationStore },
    { provide: CodeDeliveryQueue, useClass: BullmqCodeDeliveryQueue },
    { provide: SmsSendingPolicy, useClass: FlaggedAccountSmsPolicy },
    OutboxReader,
  ],
  exports: [
    TfaSettings,
    TfaMethodRepository,
    BackupCodeRepository,
    ChallengeStore,
    AuthorizationStore,
    CodeDeliveryQueue,
    SmsSendingPolicy,
    OutboxReader,
  ],
})
export class TfaInfrastructureModule {}
