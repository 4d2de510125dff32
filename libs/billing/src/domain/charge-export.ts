import { ChargeCategory, ChargeType } from './charge-report';
import { DEFAULT_TIME_ZONE, localDate, zonedRangeDays } from './time-zone';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ChargeExportQuery {
  gte: number;
  lte: number;
  categories: ChargeCategory[] | null;
  format: ExportFormat;
  /** IANA zone whose dates the range selects (docs/billing.md "Time zones"); absent: UTC. */
  tz?: string;
}

/** One daily charge line of a contract: one row of the export (docs/billing.md "Export"). */
export interface ChargeLine {
  contractId: number;
  contractType: ChargeCategory;
  label: string | null;
  endpointId: number | null;
  workergroupId: number | null;
  type: ChargeType;
  /** Midnight UTC, unix seconds. */
  day: number;
  /** Exact decimal strings, as stored. */
  quantity: string;
  unit: string;
  rate: string;
  amount: string;
  /** The billed amount: `amount` rounded half away from zero to 3 decimals (docs/billing.md "Billed amounts"). */
  billed: string;
}

/** `2026-01-31` for the midnight of that day (UTC). */
export function isoDay(day: number): string {
  return new Date(day * 1000).toISOString().slice(0, 10);
}

/** Dates a file name can show: the range clipped to years 1970-9999. */
const NAMEABLE = { min: 0, max: 253_402_214_400 };

/**
 * `charges-2026-01-01-2026-12-31.csv`: the range's first and last charged day (midnight in
 * range); a range inside one day (no midnight in it) is named for the day it lies in.
 */
export function exportFileName(
  query: Pick<ChargeExportQuery, 'gte' | 'lte' | 'format' | 'tz'>,
): string {
  const clip = (value: number) => Math.min(Math.max(value, NAMEABLE.min), NAMEABLE.max);
  const zone = query.tz ?? DEFAULT_TIME_ZONE;
  const inside = localDate(clip(query.gte), zone);
  const { first, last } = zonedRangeDays(clip(query.gte), clip(query.lte), zone) ?? {
    first: inside,
    last: inside,
  };
  return `charges-${isoDay(first)}-${isoDay(last)}.${query.format}`;
}

/**
 * The query as the charges source reads it: its range reduced to the dates (UTC-midnight
 * labels) whose midnight in the query's zone lies in it; an empty range when there are none.
 */
export function exportedDays(query: ChargeExportQuery): ChargeExportQuery {
  const days = zonedRangeDays(query.gte, query.lte, query.tz ?? DEFAULT_TIME_ZONE);
  return days ? { ...query, gte: days.first, lte: days.last } : { ...query, gte: 1, lte: 0 };
}

/**
 * What an export may hold (docs/billing.md "Export limits"), loaded and validated at boot
 * (infrastructure/export-settings.ts). Exports take their database connection from the
 * api's pool and hold it for as long as they stream, so they get a small budget of their
 * own and bounds on how long a client may keep one.
 */
export class ExportSettings {
  /** EXPORTS_IN_FLIGHT: exports streaming at once in one api process. */
  inFlight: number;
  /** EXPORTS_IN_FLIGHT_PER_USER: exports of one user streaming at once in one api process. */
  inFlightPerUser: number;
  /** EXPORT_STALL_TIMEOUT_MS: a client that takes nothing for this long is cut. */
  stallTimeoutMs: number;
  /** EXPORT_MAX_DURATION_MS: the longest a whole export may stream. */
  maxDurationMs: number;
}
