import { UsageError } from '../errors';
import {
  computeDateWindow,
  computeZonedDateWindow,
  DAY_SECONDS,
  parseDateArgument,
} from './date-window';

const NOW = new Date('2025-11-10T15:30:00Z');
const at = (iso: string) => Date.parse(iso) / 1000;

describe('computeDateWindow', () => {
  it('defaults to the last 7 days up to now', () => {
    const nowSeconds = at('2025-11-10T15:30:00Z');
    expect(computeDateWindow(undefined, undefined, NOW)).toEqual({
      gte: nowSeconds - 7 * DAY_SECONDS,
      lte: nowSeconds,
    });
  });

  it('with only a start: 7 whole days from it', () => {
    expect(computeDateWindow('2025-11-01', undefined, NOW)).toEqual({
      gte: at('2025-11-01T00:00:00Z'),
      lte: at('2025-11-07T23:59:59Z'),
    });
  });

  it('with only an end: 7 whole days up to and including it', () => {
    expect(computeDateWindow(undefined, '2025-11-05', NOW)).toEqual({
      gte: at('2025-10-30T00:00:00Z'),
      lte: at('2025-11-05T23:59:59Z'),
    });
  });

  it('with both: as given, the end day included whole', () => {
    expect(computeDateWindow('2025-11-01', '2025-11-05', NOW)).toEqual({
      gte: at('2025-11-01T00:00:00Z'),
      lte: at('2025-11-05T23:59:59Z'),
    });
    expect(computeDateWindow('2025-11-05', '2025-11-05', NOW)).toEqual({
      gte: at('2025-11-05T00:00:00Z'),
      lte: at('2025-11-05T23:59:59Z'),
    });
  });

  it('takes unix seconds exactly, in both positions and for the one-sided windows', () => {
    expect(computeDateWindow('1761955200', '1762300800', NOW)).toEqual({
      gte: 1761955200,
      lte: 1762300800,
    });
    expect(computeDateWindow('1761955200', undefined, NOW)).toEqual({
      gte: 1761955200,
      lte: 1761955200 + 7 * DAY_SECONDS - 1,
    });
    expect(computeDateWindow(undefined, '1762300800', NOW)).toEqual({
      gte: 1762300800 - 7 * DAY_SECONDS + 1,
      lte: 1762300800,
    });
  });

  it('starts a window that would reach back before 1970 at 0', () => {
    expect(computeDateWindow(undefined, '86400', NOW)).toEqual({ gte: 0, lte: 86400 });
    expect(computeDateWindow(undefined, '1970-01-02', NOW)).toEqual({
      gte: 0,
      lte: 2 * DAY_SECONDS - 1,
    });
  });

  it('refuses a start after the end and malformed or impossible dates', () => {
    expect(() => computeDateWindow('2025-11-06', '2025-11-05', NOW)).toThrow(UsageError);
    for (const bad of ['2025-13-01', '2025-02-30', '11/05/2025', '2025-1-5', '-5', '1.5', '']) {
      expect(() => parseDateArgument(bad, '--start-date')).toThrow(
        /is not a date: use YYYY-MM-DD \(UTC\) or unix seconds/,
      );
    }
  });

  it('reads YYYY-MM-DD as UTC midnight whatever the local zone', () => {
    expect(parseDateArgument('2024-02-29', '-s')).toEqual({
      seconds: at('2024-02-29T00:00:00Z'),
      isDay: true,
    });
  });
});

describe('computeZonedDateWindow', () => {
  it("bounds YYYY-MM-DD dates by the zone's midnights, a DST day 23 hours long", () => {
    // Berlin moves to summer time on 2026-03-29: that day starts at 23:00Z and ends at 22:00Z.
    expect(computeZonedDateWindow('2026-03-29', '2026-03-29', NOW, 'Europe/Berlin')).toEqual({
      gte: at('2026-03-28T23:00:00Z'),
      lte: at('2026-03-29T22:00:00Z') - 1,
    });
    expect(computeZonedDateWindow('2026-11-01', '2026-11-01', NOW, 'America/New_York')).toEqual({
      gte: at('2026-11-01T04:00:00Z'),
      lte: at('2026-11-02T05:00:00Z') - 1,
    });
  });

  it('keeps unix seconds as given, and is the UTC window without a zone', () => {
    expect(computeZonedDateWindow('1761955200', '2025-11-05', NOW, 'Asia/Tokyo')).toEqual({
      gte: 1761955200,
      lte: at('2025-11-05T15:00:00Z') - 1,
    });
    expect(computeZonedDateWindow('2025-11-01', '2025-11-05', NOW, undefined)).toEqual(
      computeDateWindow('2025-11-01', '2025-11-05', NOW),
    );
  });
});
