import { operations } from '@app/api-client';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { computeDateWindow, computeZonedDateWindow } from '../options/date-window';
import { exportCharges, ExportFormat } from './charges-export';
import { ChargesWalkPrinter, walkCharges } from './charges-walk';
import {
  ChargePage,
  renderChargesCsv,
  renderChargesTable,
  renderChargesTree,
  renderFooter,
} from './charges.render';

/** Entries per page of one page (as the public client), and the server's maximum. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 500;

export const CHARGE_TYPE_ALIASES: Record<string, string> = {
  i: 'instance',
  instance: 'instance',
  v: 'volume',
  volume: 'volume',
  s: 'serverless',
  serverless: 'serverless',
};

export interface ChargesOptions {
  charges?: boolean;
  startDate?: string;
  endDate?: string;
  chargeType?: string[];
  /** Entries per page; unset: 20 for one page, the server's 500 when walking them all. */
  limit?: number;
  nextToken?: string;
  /** table or tree; csv or ndjson with --export. Unset means table (csv with --export). */
  format?: 'table' | 'tree' | ExportFormat;
  latestFirst?: boolean;
  verbose?: boolean;
  all?: boolean;
  csv?: boolean;
  export?: string;
  /** With --export: the IANA zone whose days the window and the lines are in. */
  tz?: string;
}

/** The options of a listing (not an export): its format is table or tree. */
type ListOptions = ChargesOptions & { format?: 'table' | 'tree' };

/** The query of GET /api/v0/charges/, as the document defines it. */
export type ChargesQuery = operations['ChargesController_list']['parameters']['query'];

/** select_filters: the day window (exact seconds) and the charge types, aliases mapped. */
export function chargeFilters(
  options: Pick<ChargesOptions, 'startDate' | 'endDate' | 'chargeType'>,
  now: Date,
): ChargesQuery['select_filters'] {
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
  return filters;
}

/** The query of GET /api/v0/charges/, in the public client's parameter order. */
export function buildChargesQuery(
  options: Pick<ChargesOptions, 'startDate' | 'endDate' | 'chargeType' | 'latestFirst'> & {
    limit: number;
    format?: 'table' | 'tree';
  },
  now: Date,
  afterToken?: string,
): ChargesQuery {
  return {
    select_filters: chargeFilters(options, now),
    latest_first: options.latestFirst ? 'true' : 'false',
    limit: options.limit,
    format: options.format ?? 'table',
    after_token: afterToken,
  };
}

export async function showCharges(context: CommandContext, options: ChargesOptions): Promise<void> {
  if (!options.charges) {
    throw new UsageError(
      'only the charges report is served: add --charges (-c), e.g. gpumkt show invoices --charges',
    );
  }
  if (options.export !== undefined) return exportWindow(context, options, options.export);
  if (options.tz !== undefined) {
    throw new UsageError('--tz needs --export FILE (the charges report itself is in UTC days)');
  }
  if (options.format === 'csv' || options.format === 'ndjson') {
    throw new UsageError(
      `--format ${options.format} needs --export FILE (for CSV on stdout use --csv)`,
    );
  }
  if (options.csv && context.raw) throw new UsageError('--csv and --raw cannot be combined');
  // The window is computed once and sent as exact seconds, so every page of --all belongs
  // to one walk (a next_token is only valid for the filters it was made for).
  const usedWindow = computeDateWindow(options.startDate, options.endDate, context.io.now());
  const fixed: ListOptions = {
    ...options,
    format: options.format,
    startDate: String(usedWindow.gte),
    endDate: String(usedWindow.lte),
  };
  // Dates and types are checked before any request, so a typo costs nothing.
  chargeFilters(fixed, context.io.now());
  const verbose = Boolean(options.verbose);
  // Without dates the window ends "now", which moves: a later -t needs it spelled out.
  const window =
    options.startDate === undefined && options.endDate === undefined ? usedWindow : undefined;
  if (options.all) {
    // Walking everything: the largest page the server allows, unless -l says otherwise.
    const walked = { ...fixed, limit: options.limit ?? MAX_LIMIT };
    const format = context.raw ? 'raw' : options.csv ? 'csv' : (options.format ?? 'table');
    return walkCharges(
      context,
      (token) => fetchPage(context, walked, token),
      new ChargesWalkPrinter(context, format, verbose),
      options.nextToken,
      window,
    );
  }
  const page = await fetchPage(context, fixed, options.nextToken);
  if (context.raw) return context.printJson(page);
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
  const now = context.io.now();
  // With --tz, the dates are the zone's midnights, as the statement's (docs/billing.md "Time zones").
  const window = computeZonedDateWindow(options.startDate, options.endDate, now, options.tz);
  const filters = chargeFilters(
    { ...options, startDate: String(window.gte), endDate: String(window.lte) },
    now,
  );
  await exportCharges(context, filters, file, options.format ?? 'csv', options.tz);
}

function fetchPage(
  context: CommandContext,
  options: ListOptions,
  token?: string,
): Promise<ChargePage> {
  const query = { ...options, limit: options.limit ?? DEFAULT_LIMIT };
  return context.api().get('/api/v0/charges/', {
    params: { query: buildChargesQuery(query, context.io.now(), token) },
  });
}
