import {
  buildStatement,
  checkStatementLimits,
  periodCount,
  periodStart,
  rangeDays,
  statementWindows,
} from './charge-statement';

const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 1000;

describe('charge statement periods', () => {
  it('covers the UTC midnights inside [gte, lte]', () => {
    expect(rangeDays(utc(2026, 1, 1), utc(2026, 1, 3))).toEqual({
      first: utc(2026, 1, 1),
      last: utc(2026, 1, 3),
    });
    expect(rangeDays(utc(2026, 1, 1) + 1, utc(2026, 1, 3) - 1)).toEqual({
      first: utc(2026, 1, 2),
      last: utc(2026, 1, 2),
    });
    expect(rangeDays(utc(2026, 1, 1) + 1, utc(2026, 1, 1) + 5)).toBeNull();
  });

  it('starts weeks on Monday and months on the 1st, in UTC', () => {
    // 2026-01-01 is a Thursday; the Monday before is 2025-12-29.
    expect(periodStart(utc(2026, 1, 1), 'week')).toBe(utc(2025, 12, 29));
    expect(periodStart(utc(2026, 1, 5), 'week')).toBe(utc(2026, 1, 5));
    expect(periodStart(utc(2026, 1, 4), 'week')).toBe(utc(2025, 12, 29));
    expect(periodStart(utc(2024, 2, 29), 'month')).toBe(utc(2024, 2, 1));
    expect(periodStart(utc(2024, 2, 29), 'day')).toBe(utc(2024, 2, 29));
  });

  it('lists every period meeting the range, the first and last clipped to it', () => {
    expect(statementWindows(utc(2025, 12, 15), utc(2026, 2, 10), 'month')).toEqual([
      { bucket: utc(2025, 12, 1), start: utc(2025, 12, 15), end: utc(2026, 1, 1) },
      { bucket: utc(2026, 1, 1), start: utc(2026, 1, 1), end: utc(2026, 2, 1) },
      { bucket: utc(2026, 2, 1), start: utc(2026, 2, 1), end: utc(2026, 2, 11) },
    ]);
    expect(statementWindows(utc(2026, 1, 1), utc(2026, 1, 12), 'week')).toEqual([
      { bucket: utc(2025, 12, 29), start: utc(2026, 1, 1), end: utc(2026, 1, 5) },
      { bucket: utc(2026, 1, 5), start: utc(2026, 1, 5), end: utc(2026, 1, 12) },
      { bucket: utc(2026, 1, 12), start: utc(2026, 1, 12), end: utc(2026, 1, 13) },
    ]);
    expect(statementWindows(utc(2026, 1, 1), utc(2026, 1, 1), 'day')).toHaveLength(1);
  });

  it('counts the periods exactly, as many as the windows laid out', () => {
    for (const start of [utc(2026, 1, 1), utc(2026, 1, 31), utc(2024, 2, 29), utc(2025, 12, 29)]) {
      for (const days of [1, 6, 7, 8, 27, 28, 29, 31, 59, 365, 3000]) {
        const last = start + (days - 1) * 86_400;
        for (const period of ['day', 'week', 'month'] as const) {
          expect(periodCount(start, last, period)).toBe(
            statementWindows(start, last, period).length,
          );
        }
      }
    }
  });

  it('lays sums out on every window, groups by key, totals as given', () => {
    const windows = statementWindows(utc(2026, 1, 30), utc(2026, 2, 2), 'month');
    expect(
      buildStatement(windows, [
        { bucket: utc(2026, 2, 1), key: 'volume', amount: '0.200' },
        { bucket: utc(2026, 2, 1), key: 'instance', amount: '1.000' },
        { bucket: utc(2026, 2, 1), key: null, amount: '1.200' },
        { bucket: null, key: null, amount: '1.200' },
      ]),
    ).toEqual({
      periods: [
        { start: utc(2026, 1, 30), end: utc(2026, 2, 1), groups: [], amount: 0 },
        {
          start: utc(2026, 2, 1),
          end: utc(2026, 2, 3),
          groups: [
            { key: 'instance', amount: 1 },
            { key: 'volume', amount: 0.2 },
          ],
          amount: 1.2,
        },
      ],
      amount: 1.2,
    });
  });
});

describe('statement limits', () => {
  const query = (gte: number, lte: number, period: 'day' | 'week' | 'month' = 'day') => ({
    gte,
    lte,
    categories: null,
    period,
    groupBy: 'type' as const,
  });

  it('accepts ranges within years 1970-9999 of at most 3660 periods', () => {
    expect(() => checkStatementLimits(query(0, 3659 * 86_400))).not.toThrow();
    expect(() => checkStatementLimits(query(0, 3650 * 86_400, 'month'))).not.toThrow();
    expect(() => checkStatementLimits(query(253_402_214_400, 253_402_300_799))).not.toThrow();
  });

  it('refuses a range outside years 1970-9999', () => {
    for (const [gte, lte] of [
      [-1, 86_400],
      [0, 253_402_300_800],
    ]) {
      expect(() => checkStatementLimits(query(gte, lte, 'month'))).toThrow(
        expect.objectContaining({
          code: 'bad_request',
          message:
            'select_filters.day must lie between 0 (1970-01-01) and 253402300799 (9999-12-31) for a statement',
        }),
      );
    }
  });

  it('counts months exactly: 3,372 months pass, 3,661 do not', () => {
    // 1970-01 .. 2250-12 is 281 years of months; the former estimate (days / 28 + 2) took it
    // for more than 3,660.
    expect(() => checkStatementLimits(query(0, utc(2250, 12, 31), 'month'))).not.toThrow();
    expect(() => checkStatementLimits(query(0, utc(2274, 12, 31), 'month'))).not.toThrow();
    expect(() => checkStatementLimits(query(0, utc(2275, 1, 1), 'month'))).toThrow(
      expect.objectContaining({
        message:
          'the range spans more than 3660 periods of a month; choose a longer period or a shorter range',
      }),
    );
    // Weeks: 3,660 Mondays from 1970-01-05 pass; a day more starts the 3,661st.
    const monday = utc(1970, 1, 5);
    const lastDay = monday + (3660 * 7 - 1) * 86_400;
    expect(() => checkStatementLimits(query(monday, lastDay, 'week'))).not.toThrow();
    expect(() => checkStatementLimits(query(monday, lastDay + 86_400, 'week'))).toThrow(
      expect.objectContaining({ message: expect.stringContaining('3660 periods of a week') }),
    );
  });

  it('refuses more than 3660 periods, naming the period', () => {
    expect(() => checkStatementLimits(query(0, 3660 * 86_400))).toThrow(
      expect.objectContaining({
        code: 'bad_request',
        message:
          'the range spans more than 3660 periods of a day; choose a longer period or a shorter range',
      }),
    );
  });
});
