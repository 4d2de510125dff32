import { ChargeCategory, ChargeType, DAY_SECONDS } from './charge-report';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ChargeExportQuery {
  gte: number;
  lte: number;
  categories: ChargeCategory[] | null;
  format: ExportFormat;
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
}

/** `2026-01-31` for the midnight of that day (UTC). */
export function isoDay(day: number): string {
  return new Date(day * 1000).toISOString().slice(0, 10);
}

/** Dates a file name can show: the range clipped to years 1970-9999. */
const NAMEABLE = { min: 0, max: 253_402_214_400 };

/** `charges-2026-01-01-2026-12-31.csv`: the range's first and last day. */
export function exportFileName(query: Pick<ChargeExportQuery, 'gte' | 'lte' | 'format'>): string {
  const clip = (value: number) => Math.min(Math.max(value, NAMEABLE.min), NAMEABLE.max);
  const first = clip(Math.ceil(query.gte / DAY_SECONDS) * DAY_SECONDS);
  const last = clip(Math.floor(query.lte / DAY_SECONDS) * DAY_SECONDS);
  return `charges-${isoDay(first)}-${isoDay(Math.max(first, last))}.${query.format}`;
}
