import { Module, OnModuleInit } from '@nestjs/common';
import { Environment, ErrorCatalog, OperatorCommandRegistry, RequestAuditor } from '@app/platform';
import { AuditLogRecorder } from './application/audit-log-recorder.service';
import { AuditTrail } from './application/audit-trail.service';
import { ListAuditLogsUseCase } from './application/list-audit-logs.use-case';
import { AuditLogRepository } from './application/ports/audit-log.repository.port';
import { PruneAuditLogsUseCase } from './application/prune-audit-logs.use-case';
import { AuditLogSettings } from './domain/audit-log-settings';
import { AUDIT_LOG_ERRORS } from './domain/errors';
import { AuditLogsController } from './http/audit-logs.controller';
import { loadAuditLogSettings } from './infrastructure/audit-log-config';
import { PostgresAuditLogRepository } from './infrastructure/persistence/postgres-audit-log.repository';
import { AuditLogCommands } from './operator/audit-log.commands';

/**
 * The audit log (docs/access.md "Audit log"): the platform's RequestAuditor (the access
 * guard has each write and export recorded through it), GET /api/v0/audit_logs/ and
 * `manage audit:prune`.
 */
@Module({
  controllers: [AuditLogsController],
  providers: [
    { provide: AuditLogSettings, inject: [Environment], useFactory: loadAuditLogSettings },
    { provide: AuditLogRepository, useClass: PostgresAuditLogRepository },
    AuditTrail,
    AuditLogRecorder,
    { provide: RequestAuditor, useExisting: AuditLogRecorder },
    ListAuditLogsUseCase,
    PruneAuditLogsUseCase,
    AuditLogCommands,
  ],
  exports: [RequestAuditor, AuditTrail],
})
export class AuditLogModule implements OnModuleInit {
  constructor(
    errors: ErrorCatalog,
    private readonly operatorCommands: OperatorCommandRegistry,
    private readonly commands: AuditLogCommands,
  ) {
    errors.register(AUDIT_LOG_ERRORS);
  }

  onModuleInit(): void {
    for (const command of this.commands.commands()) this.operatorCommands.register(command);
  }
}
