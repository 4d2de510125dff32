import { BillingError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { Clock, OperatorCommand } from '@app/platform';
import { DemoDataSeeder } from '../application/ports/demo-data.seeder.port';
import { DAY_SECONDS } from '../domain/charge-report';

function positiveInt(value: unknown, name: string, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0 || parsed > max)
    throw new BillingError('bad_request', `${name} must be an integer from 1 to ${max}`);
  return parsed;
}

/** `manage seed:demo [--users N] [--contracts N] [--days N]`. */
@Injectable()
export class BillingCommands {
  constructor(
    private readonly seeder: DemoDataSeeder,
    private readonly clock: Clock,
  ) {}

  commands(): OperatorCommand[] {
    return [
      {
        name: 'seed:demo',
        description:
          'Bulk-load a synthetic billing dataset (demo users, contracts, daily charges); replaces earlier demo data',
        options: [
          ['--users <n>', 'demo users (user 1 is the heavy user)', 10_000],
          ['--contracts <n>', 'contracts over all demo users', 1_000_000],
          ['--days <n>', 'days of history, ending today (UTC)', 120],
        ],
        run: async (_args, options, { progress }) => {
          const today = Math.floor(this.clock.nowMs() / 1000 / DAY_SECONDS) * DAY_SECONDS;
          return this.seeder.seed({
            users: positiveInt(options.users, '--users', 1_000_000),
            contracts: positiveInt(options.contracts, '--contracts', 50_000_000),
            days: positiveInt(options.days, '--days', 3650),
            lastDay: today,
            onProgress: (phase, done, total, unit) => progress.report(phase, done, total, unit),
          });
        },
      },
    ];
  }
}
