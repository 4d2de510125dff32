import { CommandContext } from '../context';
import {
  computeDateWindow,
  DateWindow,
  DAY_SECONDS,
  parseDateArgument,
} from '../options/date-window';
import { zoneMidnight } from '../options/time-zone';
import { chargeFilters } from './charges.handlers';
import { renderStatementChart, renderStatementTable, StatementPeriod } from './statement.render';

export interface StatementOptions {
  startDate?: string;
  endDate?: string;
  chargeType?: string[];
  period: StatementPeriod;
  /** One grouping, or two joined by a comma (`endpoint,type`). */
  by: string;
  tz?: string;
}

/**
 * The statement's window; with --tz, a YYYY-MM-DD start is that date's midnight in the zone
 * and a YYYY-MM-DD end includes that whole day of the zone.
 */
function statementWindow(options: StatementOptions, now: Date): DateWindow {
  const window = computeDateWindow(options.startDate, options.endDate, now);
  const zone = options.tz;
  if (!zone) return window;
  const from = options.startDate && parseDateArgument(options.startDate, '--start-date');
  const to = options.endDate && parseDateArgument(options.endDate, '--end-date');
  if (from && from.isDay) window.gte = zoneMidnight(from.seconds, zone);
  if (to && to.isDay) window.lte = zoneMidnight(to.seconds + DAY_SECONDS, zone) - 1;
  return window;
}

export async function showStatement(
  context: CommandContext,
  options: StatementOptions,
): Promise<void> {
  const window = statementWindow(options, context.io.now());
  const select_filters = chargeFilters(
    { ...options, startDate: String(window.gte), endDate: String(window.lte) },
    context.io.now(),
  );
  const statement = await context.api().get('/api/v0/charges/summary/', {
    params: {
      query: {
        select_filters,
        period: options.period,
        group_by: options.by,
        ...(options.tz ? { tz: options.tz } : {}),
      },
    },
  });
  if (context.raw) return context.printJson(statement);
  const zone = options.tz ?? 'UTC';
  let text = renderStatementTable(statement, options.period, zone);
  // The chart is for a person at a terminal; piped output stays a plain table.
  if (context.io.stdout.isTTY && statement.periods.length > 0) {
    text += `\n${renderStatementChart(statement, options.period, zone)}`;
  }
  context.print(text);
}
