import { Injectable } from '@nestjs/common';
import { OperatorCommand } from '@app/platform';
import { PruneSecurityEventsUseCase } from '../application/events/prune-security-events.use-case';
import { ResetTwoFactorUseCase } from '../application/reset/reset-two-factor.use-case';
import { AccountSecurityError } from '../domain/errors';

function positiveInt(value: unknown, name: string): number {
  const parsed = Number(value);
  if (
    typeof value !== 'string' ||
    !/^\d+$/.test(value) ||
    !Number.isSafeInteger(parsed) ||
    parsed < 1
  )
    throw new AccountSecurityError('bad_request', `${name} must be a positive integer`);
  return parsed;
}

/**
 * `user:reset-2fa ID --reason TEXT`: the admin reset; `tfa:prune-events
 * [--older-than-days N]`: the security events' retention.
 */
@Injectable()
export class AccountSecurityCommands {
  constructor(
    private readonly reset: ResetTwoFactorUseCase,
    private readonly prune: PruneSecurityEventsUseCase,
  ) {}

  commands(): OperatorCommand[] {
    return [
      {
        name: 'user:reset-2fa',
        description:
          'Reset 2FA of a user who lost every factor: methods removed, 2FA off, backup codes ' +
          'revoked, every session ended, trusted devices revoked; the user is told by email',
        arguments: ['<id>'],
        options: [['--reason <text>', 'why (required, 1 to 500 characters): kept in the event']],
        run: async ([id], options) => {
          const userId = positiveInt(id, 'id');
          const reset = await this.reset.execute({
            userId,
            reason: options.reason as string,
          });
          return {
            id: userId,
            methods_removed: reset.methodsRemoved,
            backup_codes_revoked: reset.backupCodesRevoked,
            sessions_revoked: reset.sessionsRevoked,
            devices_revoked: reset.devicesRevoked,
          };
        },
      },
      {
        name: 'tfa:prune-events',
        description: 'Delete security events older than the retention, in batches',
        options: [
          [
            '--older-than-days <n>',
            'age in days of the events to delete (default: TFA_SECURITY_EVENT_RETENTION_DAYS)',
          ],
        ],
        run: async (_args, options) => {
          const days =
            options.olderThanDays === undefined
              ? undefined
              : positiveInt(options.olderThanDays, '--older-than-days');
          const { pruned, before } = await this.prune.execute(days);
          return { pruned, before: before.toISOString() };
        },
      },
    ];
  }
}
