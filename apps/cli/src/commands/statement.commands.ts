import { InvalidArgumentError, Option } from 'commander';
import { parseTimeZone } from '../options/time-zone';
import { choiceOption } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import { showStatement } from './statement.handlers';

const GROUPINGS = ['type', 'endpoint', 'workergroup', 'label'];

/** `--by`: one grouping, or two joined by a comma of which one is `type`. */
function parseGrouping(value: string): string {
  const names = value.split(',').map((name) => name.trim());
  if (names.length > 2 || !names.every((name) => GROUPINGS.includes(name)))
    throw new InvalidArgumentError(
      `Allowed choices are ${GROUPINGS.join(', ')}, or two of them joined by a comma.`,
    );
  if (names.length === 2 && (names[0] === names[1] || !names.includes('type')))
    throw new InvalidArgumentError('Two groupings need type as one of them (endpoint,type).');
  return names.join(',');
}

/** `show statement`: GET /api/v0/charges/summary/ as a table, plus a chart on a terminal. */
export function registerStatementCommand(kit: CommandKit): void {
  kit
    .verb('show', 'Show account data')
    .command('statement')
    .description(
      'Show charge totals per period (UTC or --tz), grouped by type, endpoint, workergroup or label, or a pair with type',
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
      new Option('--period <period>', 'day, week (from Monday) or month, in UTC or --tz')
        .argParser(choiceOption(['day', 'week', 'month'] as const))
        .default('month'),
    )
    .addOption(
      new Option(
        '--by <grouping>',
        'group the amounts by type, endpoint, workergroup or label, or by two joined by a comma when one is type (endpoint,type)',
      )
        .argParser(parseGrouping)
        .default('type'),
    )
    .addOption(
      new Option(
        '--tz <zone>',
        'IANA time zone (e.g. Europe/Berlin): dates, days, weeks and months in that zone (default: UTC)',
      ).argParser(parseTimeZone),
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt show statement --period month --by type -s 2025-01-01 -e 2025-12-31',
        'gpumkt show statement --period week --by endpoint -ct s -s 2025-11-01 -e 2025-11-30',
        'gpumkt show statement --by label -s 2025-01-01 -e 2025-03-31 --raw',
        'gpumkt show statement --period day --by endpoint,type --tz Europe/Berlin -s 2026-03-23 -e 2026-03-29',
      ),
    )
    .action(kit.action(showStatement));
}
