import { periodAt } from './budget-period';

const utc = (...parts: [number, number, number, number?, number?, number?]) =>
  new Date(Date.UTC(...(parts as [number, number, number, number, number, number]))).getTime();
const window = (period: 'day' | 'week' | 'month', at: number) => {
  const { start, end } = periodAt(period, at);
  return [start.toISOString(), end.toISOString()];
};

describe('periodAt (UTC calendar periods)', () => {
  it('a day runs from its midnight to the next', () => {
    expect(window('day', utc(2026, 2, 14, 23, 59, 59))).toEqual([
      '2026-03-14T00:00:00.000Z',
      '2026-03-15T00:00:00.000Z',
    ]);
    expect(window('day', utc(2026, 2, 15))).toEqual([
      '2026-03-15T00:00:00.000Z',
      '2026-03-16T00:00:00.000Z',
    ]);
  });

  it('a week runs from Monday 00:00 to the next Monday, whatever the day', () => {
    // 2026-03-02 is a Monday; 2026-03-08 a Sunday.
    for (const day of [2, 4, 8])
      expect(window('week', utc(2026, 2, day, 12))).toEqual([
        '2026-03-02T00:00:00.000Z',
        '2026-03-09T00:00:00.000Z',
      ]);
    // Across a month and a year: Thursday 2026-01-01 is in the week of Monday 2025-12-29.
    expect(window('week', utc(2026, 0, 1))).toEqual([
      '2025-12-29T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
    ]);
  });

  it('a month runs from its 1st to the next 1st: month ends, Februaries, leap years', () => {
    expect(window('month', utc(2026, 0, 31, 23, 59, 59))).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
    ]);
    expect(window('month', utc(2026, 1, 28, 12))).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
    expect(window('month', utc(2028, 1, 29, 12))).toEqual([
      '2028-02-01T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    ]);
    expect(window('month', utc(2026, 11, 31, 23))).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2027-01-01T00:00:00.000Z',
    ]);
    expect(window('month', utc(2026, 3, 30))).toEqual([
      '2026-04-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
    ]);
  });

  it('a leap day is a day and in its week', () => {
    expect(window('day', utc(2028, 1, 29, 6))).toEqual([
      '2028-02-29T00:00:00.000Z',
      '2028-03-01T00:00:00.000Z',
    ]);
    // 2028-02-29 is a Tuesday.
    expect(window('week', utc(2028, 1, 29, 6))).toEqual([
      '2028-02-28T00:00:00.000Z',
      '2028-03-06T00:00:00.000Z',
    ]);
  });
});
