import { ApiSchema } from '@app/api-client';
import { formatAmount } from '../output/format';
import { Column, renderTable } from '../output/table';

export type Statement = ApiSchema<'ChargeStatementDto'>;

export type StatementPeriod = 'day' | 'week' | 'month';

const DAY = 86_400;
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** `2026-01` for a whole month, `2026-01-05` for a day, else `2026-01-05..2026-01-11`. */
export function periodLabel(start: number, end: number, period: StatementPeriod): string {
  const first = new Date(start * 1000);
  const wholeMonth =
    period === 'month' &&
    first.getUTCDate() === 1 &&
    new Date(end * 1000).getUTCDate() === 1 &&
    end - start > 27 * DAY;
  if (wholeMonth) return isoDay(start).slice(0, 7);
  if (end - start === DAY) return isoDay(start);
  return `${isoDay(start)}..${isoDay(end - DAY)}`;
}

/** Every key in the statement, in the server's (byte) order. */
export function statementKeys(statement: Statement): string[] {
  const keys = new Set<string>();
  for (const period of statement.periods) for (const group of period.groups) keys.add(group.key);
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One row per period, one column per group key, the period's total, then the range's. */
export function renderStatementTable(statement: Statement, period: StatementPeriod): string {
  const keys = statementKeys(statement);
  const columns: Column[] = [
    { header: 'Period' },
    ...keys.map((key) => ({ header: key, align: 'right' as const })),
    { header: 'Total', align: 'right' },
  ];
  const rows = statement.periods.map((p) => {
    const amounts = new Map(p.groups.map((group) => [group.key, group.amount]));
    return [
      periodLabel(p.start, p.end, period),
      ...keys.map((key) => (amounts.has(key) ? formatAmount(amounts.get(key)) : '-')),
      formatAmount(p.amount),
    ];
  });
  rows.push(['Total', ...keys.map(() => ''), formatAmount(statement.amount)]);
  return renderTable(columns, rows);
}

/** Fill characters of the stacked bars, one per group key in order (then reused). */
const FILLS = ['█', '▓', '▒', '░', '#', '=', '+', ':', '*', 'o'];
const CHART_WIDTH = 50;

/**
 * A horizontal bar per period, its length the period's amount, stacked by group (each key
 * its own fill), scaled to the largest period, with a legend. Negative amounts (credits)
 * are left out of the bars; the table carries them.
 */
export function renderStatementChart(statement: Statement, period: StatementPeriod): string {
  const keys = statementKeys(statement);
  const fillOf = new Map(keys.map((key, index) => [key, FILLS[index % FILLS.length]]));
  const positive = (amount: number) => Math.max(0, amount);
  const largest = Math.max(
    0,
    ...statement.periods.map((p) => p.groups.reduce((sum, g) => sum + positive(g.amount), 0)),
  );
  const labels = statement.periods.map((p) => periodLabel(p.start, p.end, period));
  const labelWidth = Math.max(0, ...labels.map((label) => label.length));
  const lines = statement.periods.map((p, index) => {
    let bar = '';
    let running = 0;
    for (const group of p.groups) {
      // Cumulative rounding keeps the bar's length true to the period's total.
      const before = largest > 0 ? Math.round((running / largest) * CHART_WIDTH) : 0;
      running += positive(group.amount);
      const after = largest > 0 ? Math.round((running / largest) * CHART_WIDTH) : 0;
      bar += (fillOf.get(group.key) ?? '?').repeat(after - before);
    }
    return `${labels[index].padEnd(labelWidth)} │${bar.padEnd(CHART_WIDTH)}│ ${formatAmount(p.amount)}`;
  });
  const legend = keys.map((key) => `${fillOf.get(key)} ${key}`).join('   ');
  return `${lines.join('\n')}\n${legend}\n`;
}
