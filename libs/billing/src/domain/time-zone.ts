import { DAY_SECONDS } from './charge-report';

/**
 * Calendar days in a time zone (docs/billing.md "Time zones"). Charges are daily: a charge
 * line is dated by its day, stored as the UTC midnight of that date (its *label*). In a
 * zone, the line of date D belongs to the zone's day D, which starts at the zone's midnight
 * of D: so a range [gte, lte] holds the dates whose local midnight lies in it, and a day
 * lasts 23 or 25 hours across a daylight-saving change. Only the IANA database that Node's
 * Intl carries is consulted, never the host's zone.
 */
export const DEFAULT_TIME_ZONE = 'UTC';

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let known = formats.get(zone);
  if (!known) {
    known = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, known);
  }
  return known;
}

/** The zone's canonical IANA name (`europe/berlin` -> `Europe/Berlin`), or null when unknown. */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return null;
  try {
    return format(name).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Wall-clock fields of instant `at` (unix s) in `zone`, as if they were UTC (unix s). */
function wallClock(at: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of format(zone).formatToParts(new Date(at * 1000)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return (
    Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) / 1000
  );
}

/** The label (UTC midnight of the date) of the zone's date at instant `at`. */
export function localDate(at: number, zone: string): number {
  if (zone === DEFAULT_TIME_ZONE) return Math.floor(at / DAY_SECONDS) * DAY_SECONDS;
  return Math.floor(wallClock(at, zone) / DAY_SECONDS) * DAY_SECONDS;
}

/**
 * The instant (unix s) the date of `label` starts in `zone`: its local midnight, found from
 * the zone's offset there (twice, for an offset that changes between the guess and the
 * answer). Where midnight itself is skipped by a change, the day starts when the gap ends.
 */
export function localMidnight(label: number, zone: string): number {
  if (zone === DEFAULT_TIME_ZONE) return label;
  let at = label - (wallClock(label, zone) - label);
  at = label - (wallClock(at, zone) - at);
  return localDate(at, zone) < label ? at + (label - wallClock(at, zone)) : at;
}

/** The dates (labels) whose local midnight in `zone` lies in [gte, lte]; null when none. */
export function zonedRangeDays(
  gte: number,
  lte: number,
  zone: string,
): { first: number; last: number } | null {
  let first = localDate(gte, zone);
  if (localMidnight(first, zone) < gte) first += DAY_SECONDS;
  let last = localDate(lte, zone);
  if (localMidnight(last, zone) > lte) last -= DAY_SECONDS;
  return first <= last ? { first, last } : null;
}
