import { Injectable } from '@nestjs/common';
import { OutboxReader } from '@app/messaging';
import { OperatorCommand } from '@app/platform';
import { TfaError } from '../domain/errors';

/**
 * `manage outbox:list [--to ADDRESS] [--limit N] [--kind code|notice]`: what the outbox
 * provider "sent" (the admin reset and the events' retention are account security's).
 */
@Injectable()
export class TfaCommands {
  constructor(private readonly outbox: OutboxReader) {}

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
            messages: await this.outbox.list(options.to as string | undefined, limit, kind),
          };
        },
      },
    ];
  }
}
