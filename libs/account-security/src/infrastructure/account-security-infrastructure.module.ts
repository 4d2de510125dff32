import { Module } from '@nestjs/common';
import { MessagingModule } from '@app/messaging';
import { Environment } from '@app/platform';
import { SecurityEventRepository } from '../application/ports/security-event.repository.port';
import { SecurityNoticeQueue } from '../application/ports/security-notice.queue.port';
import { SecurityNoticeRepository } from '../application/ports/security-notice.repository.port';
import { TrustedDeviceRepository } from '../application/ports/trusted-device.repository.port';
import { UserSecurityLock } from '../application/ports/user-security-lock.port';
import { AccountSecuritySettings } from '../domain/account-security-settings';
import { loadAccountSecuritySettings } from './account-security-config';
import { MessagingSecurityNoticeQueue } from './messaging/messaging-security-notice.queue';
import { PostgresSecurityEventRepository } from './persistence/postgres-security-event.repository';
import { PostgresSecurityNoticeRepository } from './persistence/postgres-security-notice.repository';
import { PostgresTrustedDeviceRepository } from './persistence/postgres-trusted-device.repository';
import { PostgresUserSecurityLock } from './persistence/postgres-user-security-lock';

/**
 * Binds the account-security ports (events, notices, trusted devices, the user's lock) to
 * PostgreSQL and messaging's queue; shared by the api, the worker and manage.
 */
@Module({
  imports: [MessagingModule],
  providers: [
    {
      provide: AccountSecuritySettings,
      inject: [Environment],
      useFactory: loadAccountSecuritySettings,
    },
    { provide: SecurityEventRepository, useClass: PostgresSecurityEventRepository },
    { provide: SecurityNoticeRepository, useClass: PostgresSecurityNoticeRepository },
    { provide: TrustedDeviceRepository, useClass: PostgresTrustedDeviceRepository },
    { provide: SecurityNoticeQueue, useClass: MessagingSecurityNoticeQueue },
    { provide: UserSecurityLock, useClass: PostgresUserSecurityLock },
  ],
  exports: [
    MessagingModule,
    AccountSecuritySettings,
    SecurityEventRepository,
    SecurityNoticeRepository,
    TrustedDeviceRepository,
    SecurityNoticeQueue,
    UserSecurityLock,
  ],
})
export class AccountSecurityInfrastructureModule {}
