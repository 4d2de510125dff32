import {
  periodLabel,
  renderStatementChart,
  renderStatementTable,
  Statement,
} from './statement.render';

const DAY = 86_400;
const JAN = Date.UTC(2026, 0, 1) / 1000;

function statement(keys: string[]): Statement {
  const groups = keys.map((key, index) => ({ key, amount: index + 1 }));
  const amount = groups.reduce((sum, group) => sum + group.amount, 0);
  return {
    success: true,
    periods: [{ start: JAN, end: JAN + 31 * DAY, groups, amount }],
    amount,
  } as Statement;
}

const legendOf = (chart: string) => chart.trimEnd().split('\n').pop()!.split('   ');

describe('statement chart', () => {
  it('gives each of 16 keys a fill of its own (the old chart reused them past 10)', () => {
    const keys = Array.from({ length: 16 }, (_, i) => `key-${String(i).padStart(2, '0')}`);
    const legend = legendOf(renderStatementChart(statement(keys), 'month'));
    expect(legend).toHaveLength(16);
    expect(new Set(legend.map((entry) => entry.split(' ')[0])).size).toBe(16);
  });

  it('past 16 keys, the 15 largest keep their fills and the rest share one, named as such', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `key-${String(i).padStart(2, '0')}`);
    const legend = legendOf(renderStatementChart(statement(keys), 'month'));
    expect(legend).toHaveLength(16);
    expect(new Set(legend.map((entry) => entry.split(' ')[0])).size).toBe(16);
    expect(legend[15]).toBe('. 5 other keys');
    // The smallest (key-00..key-04, amounts 1..5) are the ones folded.
    expect(legend.some((entry) => entry.endsWith('key-00'))).toBe(false);
    expect(legend.some((entry) => entry.endsWith('key-19'))).toBe(true);
  });

  it('shows a hostile key escaped, in the legend and in the table', () => {
    const hostile = 'evil\u001b[31m\u001b]0;title\u0007\nline';
    const chart = renderStatementChart(statement([hostile]), 'month');
    const table = renderStatementTable(statement([hostile]), 'month');
    for (const output of [chart, table]) {
      expect(controlsBesideLineBreaks(output)).toEqual([]);
      expect(output).toContain('evil\\x1b[31m\\x1b]0;title\\x07\\nline');
    }
    expect(table.trimEnd().split('\n')).toHaveLength(3);
  });
});

describe('statement periods in a time zone, groups of two dimensions', () => {
  const HOUR = 3600;
  const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;

  it("labels periods with the zone's dates, a 23-hour DST day as one day", () => {
    // Berlin's Sunday 2026-03-29: 23:00 UTC the day before to 22:00 UTC.
    expect(periodLabel(utc(2026, 3, 28, 23), utc(2026, 3, 29, 22), 'day', 'Europe/Berlin')).toBe(
      '2026-03-29',
    );
    expect(periodLabel(utc(2026, 3, 22, 23), utc(2026, 3, 29, 22), 'week', 'Europe/Berlin')).toBe(
      '2026-03-23..2026-03-29',
    );
    expect(periodLabel(utc(2026, 3, 1, 5), utc(2026, 4, 1, 4), 'month', 'America/New_York')).toBe(
      '2026-03',
    );
    // In UTC the same Berlin day would read as two dates.
    expect(periodLabel(utc(2026, 3, 28, 23), utc(2026, 3, 29, 22), 'day')).toBe(
      '2026-03-28..2026-03-29',
    );
    expect(23 * HOUR).toBe(utc(2026, 3, 29, 22) - utc(2026, 3, 28, 23));
  });

  it('renders (key, subkey) pairs as columns and legend entries of their own', () => {
    const paired = {
      success: true,
      periods: [
        {
          start: JAN,
          end: JAN + 31 * DAY,
          groups: [
            { key: '(none)', subkey: 'instance', amount: 1.5 },
            { key: 'endpoint-501', subkey: 'serverless', amount: 2 },
          ],
          amount: 3.5,
        },
      ],
      amount: 3.5,
    } as Statement;
    const table = renderStatementTable(paired, 'month');
    expect(table.split('\n')[0]).toMatch(
      /Period\s+\(none\) \/ instance\s+endpoint-501 \/ serverless\s+Total/,
    );
    expect(legendOf(renderStatementChart(paired, 'month'))).toEqual([
      '█ (none) / instance',
      '▓ endpoint-501 / serverless',
    ]);
  });
});

/** The control characters of a text, line breaks aside (what a terminal would act on). */
function controlsBesideLineBreaks(text: string): string[] {
  return [...text].filter((char) => char !== '\n' && /\p{Cc}/u.test(char));
}
