import { Injectable } from '@nestjs/common';
import { OperatorCommand } from '@app/platform';
import { OutboxReader } from '../infrastructure/delivery/outbox-code.sender';
import { TfaError } from '../domain/errors';

/** `manage outbox:list [--to ADDRESS] [--limit N]`: codes the outbox provider "sent". */
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
        ],
        run: async (_args, options) => {
          const limit = options.limit === undefined ? 20 : Number(options.limit);
          if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
            throw new TfaError('bad_request', '--limit must be an integer between 1 and 1000');
          return { messages: await this.outbox.list(options.to as string | undefined, limit) };
        },
      },
    ];
  }
}
