import { CommandContext } from '../context';
import { computeDateWindow } from '../options/date-window';
import { chargeFilters } from './charges.handlers';
import { renderStatementChart, renderStatementTable, StatementPeriod } from './statement.render';

export interface StatementOptions {
  startDate?: string;
  endDate?: string;
  chargeType?: string[];
  period: StatementPeriod;
  by: 'type' | 'endpoint' | 'workergroup' | 'label';
}

export async function showStatement(
  context: CommandContext,
  options: StatementOptions,
): Promise<void> {
  const window = computeDateWindow(options.startDate, options.endDate, context.io.now());
  const select_filters = chargeFilters(
    { ...options, startDate: String(window.gte), endDate: String(window.lte) },
    context.io.now(),
  );
  const statement = await context.api().get('/api/v0/charges/summary/', {
    params: { query: { select_filters, period: options.period, group_by: options.by } },
  });
  if (context.raw) return context.printJson(statement);
  let text = renderStatementTable(statement, options.period);
  // The chart is for a person at a terminal; piped output stays a plain table.
  if (context.io.stdout.isTTY && statement.periods.length > 0) {
    text += `\n${renderStatementChart(statement, options.period)}`;
  }
  context.print(text);
}
