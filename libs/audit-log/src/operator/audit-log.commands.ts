import { Injectable } from '@nestjs/common';
import { OperatorCommand } from '@app/platform';
import { PruneAuditLogsUseCase } from '../application/prune-audit-logs.use-case';
import { AuditLogError } from '../domain/errors';

/** `manage audit:prune [--older-than-days N]`: the audit log's retention. */
@Injectable()
export class AuditLogCommands {
  constructor(private readonly prune: PruneAuditLogsUseCase) {}

  commands(): OperatorCommand[] {
    return [
      {
        name: 'audit:prune',
        description: 'Delete audit log entries older than the retention (AUDIT_LOG_RETENTION_DAYS)',
        options: [['--older-than-days <n>', 'delete entries older than this many days instead']],
        run: async (_args, options) => {
          const raw = options.olderThanDays;
          let days: number | undefined;
          if (raw !== undefined) {
            if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1)
              throw new AuditLogError(
                'bad_request',
                '--older-than-days must be a positive integer',
              );
            days = Number(raw);
          }
          const { pruned, before } = await this.prune.execute(days);
          return { pruned, before: before.toISOString() };
        },
      },
    ];
  }
}
