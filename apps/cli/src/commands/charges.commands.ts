import { Command, Option } from 'commander';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { computeDateWindow } from '../options/date-window';
import { choiceOption, numberOption } from '../options/validation';
import { exportCharges, ExportFormat } from './charges-export';
import { CommandKit, examples } from './command-kit';
import {
  ChargePage,
  renderChargesCsv,
  renderChargesTable,
  renderChargesTree,
  renderFooter,
} from './charges.render';

export const CHARGE_TYPE_ALIASES: Record<string, string> = {
  i: 'instance',
  instance: 'instance',
  v: 'volume',
  volume: 'volume',
  s: 'serverless',
  serverless: 'serverless',
};

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 500;

export interface ChargesOptions {
  charges?: boolean;
  startDate?: string;
  endDate?: string;
  chargeType?: string[];
  limit: number;
  nextToken?: string;
  /** table or tree; csv or ndjson with --export. Unset means table (csv with --export). */
  format?: 'table' | 'tree' | ExportFormat;
  latestFirst?: boolean;
  verbose?: boolean;
  all?: boolean;
  csv?: boolean;
  export?: string;
}

/** The query of GET /api/v0/charges/, in the public client's parameter order. */
export function buildChargesQuery(
  options: Pick<
    ChargesOptions,
    'startDate' | 'endDate' | 'chargeType' | 'limit' | 'format' | 'latestFirst'
  >,
  now: Date,
  afterToken?: string,
): Record<string, string | number | boolean | object | undefined> {
  const day = computeDateWindow(options.startDate, options.endDate, now);
  const filters: Record<string, unknown> = { day };
  if (options.chargeType?.length) {
    const types = options.chargeType.map((alias) => {
      const type = CHARGE_TYPE_ALIASES[alias.toLowerCase()];
      if (!type) {
        throw new UsageError(
          `--charge-type '${alias}' is not one of i|instance, v|volume, s|serverless`,
        );
      }
      return type;
    });
    filters.type = { in: [...new Set(types)] };
  }
  return {
    select_filters: filters,
    latest_first: Boolean(options.latestFirst),
    limit: options.limit,
    format: options.format ?? 'table',
    after_token: afterToken,
  };
}

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
      new Option('-l, --limit <n>', `entries per page, 1..${MAX_LIMIT}`)
        .argParser(numberOption({ integer: true, min: 1, max: MAX_LIMIT }))
        .default(DEFAULT_LIMIT),
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
      'follow the next page token to the last page, with progress on stderr when it is a ' +
        'terminal (default: off, one page)',
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
    .addHelpText(
      'after',
      examples(
        'gpumkt show invoices --charges',
        'gpumkt show invoices -c -s 2025-11-01 -e 2025-11-05 -ct i v --latest-first',
        'gpumkt show invoices -c -f tree -v --all',
        'gpumkt show invoices -c --all --csv > charges.csv',
        'gpumkt show invoices -c -s 2025-01-01 -e 2025-12-31 --export charges-2025.csv',
        'gpumkt show invoices -c -s 2025-01-01 -e 2025-12-31 --export lines.ndjson -f ndjson',
      ),
    )
    .action(kit.action(showCharges));
}

async function showCharges(context: CommandContext, options: ChargesOptions): Promise<void> {
  if (!options.charges) {
    throw new UsageError(
      'only the charges report is served: add --charges (-c), e.g. gpumkt show invoices --charges',
    );
  }
  if (options.export !== undefined) return exportWindow(context, options, options.export);
  if (options.format === 'csv' || options.format === 'ndjson') {
    throw new UsageError(
      `--format ${options.format} needs --export FILE (for CSV on stdout use --csv)`,
    );
  }
  if (options.csv && context.raw) throw new UsageError('--csv and --raw cannot be combined');
  // The window is computed once and sent as exact seconds, so every page of --all belongs
  // to one walk (a next_token is only valid for the filters it was made for).
  const usedWindow = computeDateWindow(options.startDate, options.endDate, context.io.now());
  const fixed: ChargesOptions = {
    ...options,
    startDate: String(usedWindow.gte),
    endDate: String(usedWindow.lte),
  };
  // Dates and types are checked before any request, so a typo costs nothing.
  buildChargesQuery(fixed, context.io.now());
  const page = options.all
    ? await fetchAllPages(context, fixed)
    : await fetchPage(context, fixed, options.nextToken);
  if (context.raw) return context.printJson(page);
  const verbose = Boolean(options.verbose);
  // Without dates the window ends "now", which moves: a later -t needs it spelled out.
  const window =
    options.startDate === undefined && options.endDate === undefined ? usedWindow : undefined;
  if (options.csv) {
    context.print(renderChargesCsv(page.results, verbose));
    context.note(renderFooter(page, window));
    return;
  }
  const body =
    options.format === 'tree'
      ? renderChargesTree(page.results, verbose)
      : renderChargesTable(page.results, verbose);
  context.print(`${body}\n${renderFooter(page, window)}`);
}

/** `--export FILE`: the whole window's charge lines, one request, streamed to FILE. */
async function exportWindow(
  context: CommandContext,
  options: ChargesOptions,
  file: string,
): Promise<void> {
  for (const [given, name] of [
    [options.csv, '--csv'],
    [options.all, '--all'],
    [options.nextToken, '--next-token'],
    [options.verbose, '--verbose'],
  ] as const) {
    if (given) throw new UsageError(`--export cannot be combined with ${name}`);
  }
  if (options.format === 'table' || options.format === 'tree') {
    throw new UsageError(`--export writes csv or ndjson, not ${options.format}`);
  }
  if (file.trim() === '') throw new UsageError('--export needs a file name');
  const { select_filters } = buildChargesQuery(options, context.io.now());
  await exportCharges(context, { select_filters }, file, options.format ?? 'csv');
}

function fetchPage(
  context: CommandContext,
  options: ChargesOptions,
  token?: string,
): Promise<ChargePage> {
  return context.api().request<ChargePage>({
    method: 'GET',
    path: '/api/v0/charges/',
    query: buildChargesQuery(options, context.io.now(), token),
  });
}

async function fetchAllPages(
  context: CommandContext,
  options: ChargesOptions,
): Promise<ChargePage> {
  // Progress is for a person watching stderr; stdout (table, CSV or --raw) is unaffected.
  const progress = context.io.stderr.isTTY;
  const results: ChargePage['results'] = [];
  let total = 0;
  let token = options.nextToken;
  for (;;) {
    const page = await fetchPage(context, options, token);
    results.push(...page.results);
    total = page.total;
    if (progress) context.io.stderr.write(`\rFetched ${results.length} of ${total}`);
    if (!page.next_token) break;
    token = page.next_token;
  }
  if (progress) context.io.stderr.write('\n');
  return { success: true, results, count: results.length, total, next_token: null };
}
