import { ApiSchema } from '@app/api-client';
import { formatAmount } from '../output/format';
import { Column, renderTable } from '../output/table';
import { terminalText } from '../output/terminal-text';
import { zonedIsoDay } from '../options/time-zone';

export type Statement = ApiSchema<'ChargeStatementDto'>;

export type StatementPeriod = 'day' | 'week' | 'month';

type StatementGroup = Statement['periods'][number]['groups'][number];

/**
 * `2026-01` for a whole month, `2026-01-05` for a day, else `2026-01-05..2026-01-11`: the
 * dates of `zone` (a day across a DST change is 23 or 25 hours there).
 */
export function periodLabel(
  start: number,
  end: number,
  period: StatementPeriod,
  zone = 'UTC',
): string {
  const first = zonedIsoDay(start, zone);
  const last = zonedIsoDay(end - 1, zone);
  const wholeMonth =
    period === 'month' &&
    first.endsWith('-01') &&
    zonedIsoDay(end, zone).endsWith('-01') &&
    first.slice(0, 7) === last.slice(0, 7);
  if (wholeMonth) return first.slice(0, 7);
  if (first === last) return first;
  return `${first}..${last}`;
}

/** A group's column and legend name: its key, or `key / subkey` with two dimensions. */
export function groupName(group: StatementGroup): string {
  return group.subkey === undefined ? group.key : `${group.key} / ${group.subkey}`;
}

/** Every group name in the statement, in byte order. */
export function statementKeys(statement: Statement): string[] {
  const keys = new Set<string>();
  for (const period of statement.periods)
    for (const group of period.groups) keys.add(groupName(group));
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One row per period, one column per group key, the period's total, then the range's. */
export function renderStatementTable(
  statement: Statement,
  period: StatementPeriod,
  zone = 'UTC',
): string {
  const keys = statementKeys(statement);
  const columns: Column[] = [
    { header: 'Period' },
    ...keys.map((key) => ({ header: key, align: 'right' as const })),
    { header: 'Total', align: 'right' },
  ];
  const rows = statement.periods.map((p) => {
    const amounts = new Map(p.groups.map((group) => [groupName(group), group.amount]));
    return [
      periodLabel(p.start, p.end, period, zone),
      ...keys.map((key) => (amounts.has(key) ? formatAmount(amounts.get(key)) : '-')),
      formatAmount(p.amount),
    ];
  });
  rows.push(['Total', ...keys.map(() => ''), formatAmount(statement.amount)]);
  return renderTable(columns, rows);
}

/**
 * Fill characters of the stacked bars, one per group key. With more keys than fills, the
 * keys with the largest totals keep a fill each and the rest share the last one, named as
 * such in the legend: no two keys ever look alike.
 */
const FILLS = ['█', '▓', '▒', '░', '#', '=', '+', ':', '*', 'o', '%', '@', 'x', '~', '^', '.'];
const CHART_WIDTH = 50;

/** Each key's fill, and the legend's entries (`█ instance`, `. 3 other keys`). */
function chartFills(statement: Statement): { fillOf: Map<string, string>; legend: string[] } {
  const keys = statementKeys(statement);
  if (keys.length <= FILLS.length) {
    const fillOf = new Map(keys.map((key, index) => [key, FILLS[index]]));
    return { fillOf, legend: keys.map((key) => `${fillOf.get(key)} ${terminalText(key)}`) };
  }
  const totals = new Map<string, number>();
  for (const period of statement.periods)
    for (const group of period.groups)
      totals.set(groupName(group), (totals.get(groupName(group)) ?? 0) + Math.max(0, group.amount));
  const own = new Set(
    [...keys]
      .sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || (a < b ? -1 : 1))
      .slice(0, FILLS.length - 1),
  );
  const shared = FILLS[FILLS.length - 1];
  const owning = keys.filter((key) => own.has(key));
  const fillOf = new Map(keys.map((key) => [key, shared]));
  owning.forEach((key, index) => fillOf.set(key, FILLS[index]));
  const others = keys.length - owning.length;
  return {
    fillOf,
    legend: [
      ...owning.map((key) => `${fillOf.get(key)} ${terminalText(key)}`),
      `${shared} ${others} other keys`,
    ],
  };
}

/**
 * A horizontal bar per period, its length the period's amount, stacked by group (each key
 * its own fill, see chartFills), scaled to the largest period, with a legend. Negative
 * amounts (credits) are left out of the bars; the table carries them.
 */
export function renderStatementChart(
  statement: Statement,
  period: StatementPeriod,
  zone = 'UTC',
): string {
  const { fillOf, legend } = chartFills(statement);
  const positive = (amount: number) => Math.max(0, amount);
  const largest = Math.max(
    0,
    ...statement.periods.map((p) => p.groups.reduce((sum, g) => sum + positive(g.amount), 0)),
  );
  const labels = statement.periods.map((p) => periodLabel(p.start, p.end, period, zone));
  const labelWidth = Math.max(0, ...labels.map((label) => label.length));
  const lines = statement.periods.map((p, index) => {
    let bar = '';
    let running = 0;
    for (const group of p.groups) {
      // Cumulative rounding keeps the bar's length true to the period's total.
      const before = largest > 0 ? Math.round((running / largest) * CHART_WIDTH) : 0;
      running += positive(group.amount);
      const after = largest > 0 ? Math.round((running / largest) * CHART_WIDTH) : 0;
      bar += (fillOf.get(groupName(group)) ?? '?').repeat(after - before);
    }
    return `${labels[index].padEnd(labelWidth)} │${bar.padEnd(CHART_WIDTH)}│ ${formatAmount(p.amount)}`;
  });
  return `${lines.join('\n')}\n${legend.join('   ')}\n`;
}
