import { Command, Option } from 'commander';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { computeDateWindow } from '../options/date-window';
import { choiceOption, numberOption } from '../options/validation';
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
  format: 'table' | 'tree';
  latestFirst?: boolean;
  verbose?: boolean;
  all?: boolean;
  csv?: boolean;
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
    format: options.format,
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
    .option('-c, --charges', 'show the charges report (required: the only report served here)')
    .option(
      '-s, --start-date <date>',
      'first day, YYYY-MM-DD in UTC or unix seconds (default: 7 days before the end)',
    )
    .option(
      '-e, --end-date <date>',
      'last day, included whole when given as YYYY-MM-DD (default: 7 days after the start, else now)',
    )
    .option(
      '--charge-type <types...>',
      'only these types (short form -ct): i|instance, v|volume, s|serverless; several allowed, e.g. -ct i v',
    )
    .option(
      '-l, --limit <n>',
      `entries per page, 1..${MAX_LIMIT}`,
      numberOption({ integer: true, min: 1, max: MAX_LIMIT }),
      DEFAULT_LIMIT,
    )
    .option('-t, --next-token <token>', 'continue from the "Next page token" of an earlier page')
    .addOption(
      new Option(
        '-f, --format <format>',
        'table (flat rows) or tree (serverless grouped per endpoint)',
      )
        .argParser(choiceOption(['table', 'tree'] as const))
        .default('table'),
    )
    .option('--latest-first', 'most recent charges first (default: oldest first)')
    .option('-v, --verbose', 'add the breakdown per charge type (gpu, disk, bwd, bwu)')
    .option(
      '--all',
      'follow the next page token to the last page (progress on stderr when a terminal)',
    )
    .option('--csv', 'print CSV (RFC 4180) instead of a table; the summary goes to stderr')
    .addHelpText(
      'after',
      examples(
        'gpumkt show invoices --charges',
        'gpumkt show invoices -c -s 2025-11-01 -e 2025-11-05 -ct i v --latest-first',
        'gpumkt show invoices -c -f tree -v --all',
        'gpumkt show invoices -c --all --csv > charges.csv',
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
  if (options.csv && context.raw) throw new UsageError('--csv and --raw cannot be combined');
  // Validate dates and types before any request, so a typo costs nothing.
  buildChargesQuery(options, context.io.now());
  const page = options.all
    ? await fetchAllPages(context, options)
    : await fetchPage(context, options, options.nextToken);
  if (context.raw) return context.printJson(page);
  const verbose = Boolean(options.verbose);
  if (options.csv) {
    context.print(renderChargesCsv(page.results, verbose));
    context.note(renderFooter(page));
    return;
  }
  const body =
    options.format === 'tree'
      ? renderChargesTree(page.results, verbose)
      : renderChargesTable(page.results, verbose);
  context.print(`${body}\n${renderFooter(page)}`);
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
  // The window is fixed once: pages made for other filters would be refused by the server.
  const now = context.io.now();
  const frozen = { ...options, startDate: undefined, endDate: undefined };
  const window = computeDateWindow(options.startDate, options.endDate, now);
  const fixed = { ...frozen, startDate: String(window.gte), endDate: String(window.lte) };
  const progress = context.io.stderr.isTTY && !context.raw;
  const results: ChargePage['results'] = [];
  let total = 0;
  let token = options.nextToken;
  for (;;) {
    const page = await fetchPage(context, fixed, token);
    results.push(...page.results);
    total = page.total;
    if (progress) context.io.stderr.write(`\rFetched ${results.length} of ${total}`);
    if (!page.next_token) break;
    token = page.next_token;
  }
  if (progress) context.io.stderr.write('\n');
  return { success: true, results, count: results.length, total, next_token: null };
}
