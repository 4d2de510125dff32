import { InvalidArgumentError } from 'commander';

/**
 * `--tz`: an IANA time zone name, checked against the zones Node's Intl knows. The calendar
 * helpers turn the statement's YYYY-MM-DD arguments into the zone's midnights and its
 * period bounds back into the zone's dates, as the server counts them (docs/billing.md
 * "Time zones").
 */
export function parseTimeZone(value: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value.trim() }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidArgumentError(
      `'${value}' is not an IANA time zone name (e.g. Europe/Berlin).`,
    );
  }
}

/** `2026-03-29`: the date in `zone` at unix second `at`. */
export function zonedIsoDay(at: number, zone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(at * 1000));
}

/** Unix second at which the UTC-midnight `label`'s date starts in `zone`. */
export function zoneMidnight(label: number, zone: string): number {
  const shift = (at: number) => {
    const [date, time] = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .format(new Date(at * 1000))
      .split(' ');
    return Date.parse(`${date}T${time}Z`) / 1000 - at;
  };
  const guess = label - shift(label);
  return label - shift(guess);
}
