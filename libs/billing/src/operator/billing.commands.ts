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

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `--last-day YYYY-MM-DD` as the unix seconds of that UTC midnight; today when absent. */
function lastDay(value: unknown, today: number): number {
  if (value === undefined) return today;
  const match = DATE.exec(String(value));
  const seconds = match ? Date.UTC(+match[1], +match[2] - 1, +match[3]) / 1000 : NaN;
  // Date.UTC rolls 2026-02-30 over into March: a date that does not exist is refused.
  if (!match || new Date(seconds * 1000).toISOString().slice(0, 10) !== value) {
    throw new BillingError('bad_request', `--last-day must be a date YYYY-MM-DD (got '${value}')`);
  }
  return seconds;
}

/** `manage seed:demo [--users N] [--contracts N] [--days N] [--last-day YYYY-MM-DD]`. */
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
          ['--days <n>', 'days of history, ending on --last-day', 120],
          ['--last-day <date>', 'last day of the history, YYYY-MM-DD in UTC (default: today)'],
        ],
        run: async (_args, options, { progress }) => {
          const today = Math.floor(this.clock.nowMs() / 1000 / DAY_SECONDS) * DAY_SECONDS;
          return this.seeder.seed({
            users: positiveInt(options.users, '--users', 1_000_000),
            contracts: positiveInt(options.contracts, '--contracts', 50_000_000),
            days: positiveInt(options.days, '--days', 3650),
            lastDay: lastDay(options.lastDay, today),
            onProgress: (phase, done, total, unit) => progress.report(phase, done, total, unit),
          });
        },
      },
    ];
  }
}
