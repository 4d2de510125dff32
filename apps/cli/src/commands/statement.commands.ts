import { Option } from 'commander';
import { choiceOption } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import { showStatement } from './statement.handlers';

/** `show statement`: GET /api/v0/charges/summary/ as a table, plus a chart on a terminal. */
export function registerStatementCommand(kit: CommandKit): void {
  kit
    .verb('show', 'Show account data')
    .command('statement')
    .description(
      'Show charge totals per period (UTC), grouped by type, endpoint, workergroup or label',
    )
    .option(
      '-s, --start-date <date>',
      'first day, YYYY-MM-DD in UTC or unix seconds (default: 6 days before --end-date, else 7 days before now)',
    )
    .option(
      '-e, --end-date <date>',
      'last day, YYYY-MM-DD in UTC (that whole day is included) or unix seconds (default: now)',
    )
    .option(
      '--charge-type <types...>',
      'only these types (short form -ct): i|instance, v|volume, s|serverless (default: all)',
    )
    .addOption(
      new Option('--period <period>', 'day, week (from Monday) or month, in UTC')
        .argParser(choiceOption(['day', 'week', 'month'] as const))
        .default('month'),
    )
    .addOption(
      new Option('--by <grouping>', 'group the amounts by type, endpoint, workergroup or label')
        .argParser(choiceOption(['type', 'endpoint', 'workergroup', 'label'] as const))
        .default('type'),
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt show statement --period month --by type -s 2025-01-01 -e 2025-12-31',
        'gpumkt show statement --period week --by endpoint -ct s -s 2025-11-01 -e 2025-11-30',
        'gpumkt show statement --by label -s 2025-01-01 -e 2025-03-31 --raw',
      ),
    )
    .action(kit.action(showStatement));
}
