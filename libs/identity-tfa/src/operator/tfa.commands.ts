import { Injectable } from '@nestjs/common';
import { OperatorCommand } from '@app/platform';
import { PruneSecurityEventsUseCase } from '../application/prune-security-events.use-case';
import { ResetTwoFactorUseCase } from '../application/reset-two-factor.use-case';
import { OutboxKind, OutboxReader } from '../infrastructure/delivery/outbox-code.sender';
import { TfaError } from '../domain/errors';

function positiveInt(value: unknown, name: string): number {
  const parsed = Number(value);
  if (
    typeof value !== 'string' ||
    !/^\d+$/.test(value) ||
    !Number.isSafeInteger(parsed) ||
    parsed < 1
  )
    throw new TfaError('bad_request', `${name} must be a positive integer`);
  return parsed;
}

/**
 * `manage outbox:list [--to ADDRESS] [--limit N] [--kind code|notice]`: what the outbox
 * provider "sent"; `user:reset-2fa ID --reason TEXT`: the admin reset; `tfa:prune-events
 * [--older-than-days N]`: the security events' retention.
 */
@Injectable()
export class TfaCommands {
  constructor(
    private readonly outbox: OutboxReader,
    private readonly reset: ResetTwoFactorUseCase,
    private readonly prune: PruneSecurityEventsUseCase,
  ) {}

  commands(): OperatorCommand[] {
    return [
      {
        name: 'outbox:list',
        description: 'Messages of the development outbox provider, newest first',
        options: [
          ['--to <address>', 'only messages to this phone number or email address'],
          ['--limit <n>', 'at most this many messages (default 20)'],
          ['--kind <kind>', 'only codes (code) or only security notices (notice)'],
        ],
        run: async (_args, options) => {
          const limit = options.limit === undefined ? 20 : Number(options.limit);
          if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
            throw new TfaError('bad_request', '--limit must be an integer between 1 and 1000');
          const kind = options.kind as string | undefined;
          if (kind !== undefined && kind !== 'code' && kind !== 'notice')
            throw new TfaError('bad_request', '--kind must be code or notice');
          return {
            messages: await this.outbox.list(
              options.to as string | undefined,
              limit,
              kind as OutboxKind | undefined,
            ),
          };
        },
      },
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
