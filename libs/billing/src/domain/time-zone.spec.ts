import { canonicalTimeZone, localDate, localMidnight, zonedRangeDays } from './time-zone';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;
const HOUR = 3600;

describe('calendar days in a time zone', () => {
  it('knows IANA names in any case, and nothing else', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    for (const bad of ['Mars/Olympus', '', 'Europe/Berlin; DROP', '../etc/passwd', 'x'.repeat(80)])
      expect(canonicalTimeZone(bad)).toBeNull();
  });

  it('starts each day at its local midnight: 23 hours in spring, 25 in autumn', () => {
    // Berlin: CET (+1) to CEST (+2) on Sunday 2026-03-29, back on Sunday 2026-10-25.
    expect(localMidnight(utc(2026, 3, 29), 'Europe/Berlin')).toBe(utc(2026, 3, 28, 23));
    expect(localMidnight(utc(2026, 3, 30), 'Europe/Berlin')).toBe(utc(2026, 3, 29, 22));
    expect(
      localMidnight(utc(2026, 10, 26), 'Europe/Berlin') -
        localMidnight(utc(2026, 10, 25), 'Europe/Berlin'),
    ).toBe(25 * HOUR);
    // New York: EST (-5) to EDT (-4) on Sunday 2026-03-08.
    expect(localMidnight(utc(2026, 3, 8), 'America/New_York')).toBe(utc(2026, 3, 8, 5));
    expect(localMidnight(utc(2026, 3, 9), 'America/New_York')).toBe(utc(2026, 3, 9, 4));
    expect(localMidnight(utc(2026, 3, 9), 'UTC')).toBe(utc(2026, 3, 9));
  });

  it('dates an instant in the zone', () => {
    expect(localDate(utc(2026, 3, 28, 23), 'Europe/Berlin')).toBe(utc(2026, 3, 29));
    expect(localDate(utc(2026, 3, 9, 3), 'America/New_York')).toBe(utc(2026, 3, 8));
    expect(localDate(utc(2026, 3, 9, 3), 'UTC')).toBe(utc(2026, 3, 9));
  });

  it('selects the dates whose local midnight lies in the range', () => {
    const berlin = zonedRangeDays(utc(2026, 3, 22, 23), utc(2026, 3, 28, 23), 'Europe/Berlin');
    expect(berlin).toEqual({ first: utc(2026, 3, 23), last: utc(2026, 3, 29) });
    expect(zonedRangeDays(utc(2026, 3, 22, 23), utc(2026, 3, 28, 23), 'UTC')).toEqual({
      first: utc(2026, 3, 23),
      last: utc(2026, 3, 28),
    });
    // An hour inside one local day holds no midnight.
    expect(zonedRangeDays(utc(2026, 3, 23, 1), utc(2026, 3, 23, 2), 'Europe/Berlin')).toBeNull();
  });
});
