import { CommandContext } from '../context';
import { computeZonedDateWindow } from '../options/date-window';
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

export async function showStatement(
  context: CommandContext,
  options: StatementOptions,
): Promise<void> {
  // With --tz, the dates are the zone's (docs/billing.md "Time zones").
  const window = computeZonedDateWindow(
    options.startDate,
    options.endDate,
    context.io.now(),
    options.tz,
  );
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
