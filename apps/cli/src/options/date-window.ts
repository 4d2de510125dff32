import { UsageError } from '../errors';
import { zoneMidnight } from './time-zone';

export const DAY_SECONDS = 86_400;
export const DEFAULT_WINDOW_DAYS = 7;

export interface DateWindow {
  /** Unix seconds, inclusive. */
  gte: number;
  /** Unix seconds, inclusive. */
  lte: number;
}

interface ParsedDate {
  seconds: number;
  /** A calendar date (YYYY-MM-DD) rather than an exact instant. */
  isDay: boolean;
}

/** `YYYY-MM-DD` (UTC midnight) or unix seconds (digits only). */
export function parseDateArgument(value: string, option: string): ParsedDate {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return { seconds: Number(trimmed), isDay: false };
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const ms = Date.UTC(year, month - 1, day);
    const check = new Date(ms);
    if (
      check.getUTCFullYear() === year &&
      check.getUTCMonth() === month - 1 &&
      check.getUTCDate() === day
    ) {
      return { seconds: ms / 1000, isDay: true };
    }
  }
  throw new UsageError(
    `${option} '${value}' is not a date: use YYYY-MM-DD (UTC) or unix seconds, e.g. 2025-11-01 or 1761955200`,
  );
}

/**
 * The report window:
 * - neither date: the last 7 days up to now;
 * - only a start: 7 days from it; only an end: 7 days up to it;
 * - an end given as YYYY-MM-DD includes that whole day (up to 23:59:59 UTC).
 */
export function computeDateWindow(
  start: string | undefined,
  end: string | undefined,
  now: Date,
): DateWindow {
  const span = DEFAULT_WINDOW_DAYS * DAY_SECONDS;
  const from = start !== undefined ? parseDateArgument(start, '--start-date') : undefined;
  const to = end !== undefined ? parseDateArgument(end, '--end-date') : undefined;
  const toSeconds = to && (to.isDay ? to.seconds + DAY_SECONDS - 1 : to.seconds);
  let window: DateWindow;
  if (from && toSeconds !== undefined) window = { gte: from.seconds, lte: toSeconds };
  else if (from) window = { gte: from.seconds, lte: from.seconds + span - 1 };
  else if (toSeconds !== undefined) window = { gte: toSeconds - span + 1, lte: toSeconds };
  else {
    const nowSeconds = Math.floor(now.getTime() / 1000);
    window = { gte: nowSeconds - span, lte: nowSeconds };
  }
  // Nothing is charged before 1970: a window reaching back past it starts there.
  window.gte = Math.max(0, window.gte);
  if (window.gte > window.lte) {
    throw new UsageError('--start-date must not be after --end-date');
  }
  return window;
}

/**
 * The window of `--tz`: as computeDateWindow, except that a YYYY-MM-DD start is that
 * date's midnight in `zone` and a YYYY-MM-DD end includes that whole day of the zone
 * (23, 24 or 25 hours). Unix seconds stay as given; without a zone this is the UTC window.
 */
export function computeZonedDateWindow(
  start: string | undefined,
  end: string | undefined,
  now: Date,
  zone: string | undefined,
): DateWindow {
  const window = computeDateWindow(start, end, now);
  if (!zone) return window;
  const from = start !== undefined ? parseDateArgument(start, '--start-date') : undefined;
  const to = end !== undefined ? parseDateArgument(end, '--end-date') : undefined;
  if (from?.isDay) window.gte = zoneMidnight(from.seconds, zone);
  if (to?.isDay) window.lte = zoneMidnight(to.seconds + DAY_SECONDS, zone) - 1;
  return window;
}
