import { BudgetPeriod } from './budget';

/** A period of a budget: [start, end), both UTC midnights. */
export interface PeriodWindow {
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;

/**
 * The calendar period `period` that holds the instant `atMs`, in UTC: the day; the week
 * from Monday 00:00 to the next Monday; the month from its 1st to the next 1st (so a
 * February is 28 or 29 days, a leap year's 29).
 */
export function periodAt(period: BudgetPeriod, atMs: number): PeriodWindow {
  const at = new Date(atMs);
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (period) {
    case 'day': {
      const start = Date.UTC(y, m, d);
      return { start: new Date(start), end: new Date(start + DAY_MS) };
    }
    case 'week': {
      // getUTCDay: Sunday 0 .. Saturday 6; days since Monday: Monday 0 .. Sunday 6.
      const sinceMonday = (at.getUTCDay() + 6) % 7;
      const start = Date.UTC(y, m, d - sinceMonday);
      return { start: new Date(start), end: new Date(start + 7 * DAY_MS) };
    }
    case 'month':
      return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  }
}

/** Unix seconds of a date (period bounds are midnights: whole seconds). */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
