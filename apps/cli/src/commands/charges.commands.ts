import { Command, Option } from 'commander';
import { parseTimeZone } from '../options/time-zone';
import { choiceOption, numberOption } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import { DEFAULT_LIMIT, MAX_LIMIT, showCharges } from './charges.handlers';

export function registerChargesCommands(kit: CommandKit): void {
  const show = kit.verb('show', 'Show account data');
  for (const name of ['invoices', 'invoices-v1']) {
    addChargesOptions(show.command(name), kit, name === 'invoices-v1');
  }
}

function addChargesOptions(command: Command, kit: CommandKit, isAlias: boolean): void {
  command
    .description(
      isAlias
        ? 'Same as "show invoices" (the public client\'s name)'
        : 'Show per-contract charges (GPU, disk, bandwidth) for instances, volumes and serverless',
    )
    .option(
      '-c, --charges',
      'show the charges report (required: the invoices listing is not served here)',
    )
    .option(
      '-s, --start-date <date>',
      'first day, YYYY-MM-DD in UTC or unix seconds ' +
        '(default: 6 days before --end-date, so 7 whole days, else 7 days before now)',
    )
    .option(
      '-e, --end-date <date>',
      'last day, YYYY-MM-DD in UTC (that whole day is included) or unix seconds ' +
        '(default: the 7th day from --start-date, else now)',
    )
    .option(
      '--charge-type <types...>',
      'only these types (short form -ct): i|instance, v|volume, s|serverless; several ' +
        'allowed, e.g. -ct i v (default: all types)',
    )
    .addOption(
      new Option(
        '-l, --limit <n>',
        `entries per page, 1..${MAX_LIMIT} (default: ${DEFAULT_LIMIT}; with --all: ${MAX_LIMIT}, ` +
          'the fewest requests)',
      ).argParser(numberOption({ integer: true, min: 1, max: MAX_LIMIT })),
    )
    .option(
      '-t, --next-token <token>',
      'continue from the "Next page token" of an earlier page, with the same -s, -e, -ct, ' +
        '-f and --latest-first (default: the first page)',
    )
    .addOption(
      new Option(
        '-f, --format <format>',
        'table (flat rows) or tree (serverless grouped per endpoint); with --export, csv or ' +
          'ndjson (default: table; with --export: csv)',
      ).argParser(choiceOption(['table', 'tree', 'csv', 'ndjson'] as const)),
    )
    .option('--latest-first', 'most recent charges first (default: oldest first)')
    .option(
      '-v, --verbose',
      'add the breakdown per charge type: gpu, disk, bwd, bwu (default: off)',
    )
    .option(
      '--all',
      'follow the next page token to the last page, printing each page as it arrives, with ' +
        'progress on stderr (default: off, one page)',
    )
    .option(
      '--csv',
      'print CSV (RFC 4180) instead of a table; the summary goes to stderr (default: off)',
    )
    .option(
      '--export <file>',
      'write every daily charge line of the window to FILE (CSV or NDJSON per --format), ' +
        'streamed, with a progress bar on a terminal (default: off)',
    )
    .addOption(
      new Option(
        '--tz <zone>',
        "with --export: IANA time zone (e.g. Europe/Berlin) of the dates and of the lines' days (default: UTC)",
      ).argParser(parseTimeZone),
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt show invoices --charges',
        'gpumkt show invoices -c -s 2025-11-01 -e 2025-11-05 -ct i v --latest-first',
        'gpumkt show invoices -c -f tree -v --all',
        'gpumkt show invoices -c --all --csv > charges.csv',
        'gpumkt show invoices -c -s 2025-01-01 -e 2025-12-31 --export charges-2025.csv',
        'gpumkt show invoices -c -s 2025-01-01 -e 2025-12-31 --export lines.ndjson -f ndjson',
        'gpumkt show invoices -c -s 2026-03-01 -e 2026-03-31 --export march.csv --tz Europe/Berlin',
      ),
    )
    .action(kit.action(showCharges));
}
