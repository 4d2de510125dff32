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

/** The export's columns, in order; also the CSV header and the NDJSON keys. */
export const EXPORT_COLUMNS = [
  'contract_id',
  'contract_type',
  'label',
  'endpoint_id',
  'workergroup_id',
  'type',
  'day',
  'quantity',
  'unit',
  'rate',
  'amount',
] as const;

/** `2026-01-31` for the midnight of that day (UTC). */
export function isoDay(day: number): string {
  return new Date(day * 1000).toISOString().slice(0, 10);
}

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function values(line: ChargeLine): (string | number | null)[] {
  return [
    line.contractId,
    line.contractType,
    line.label,
    line.endpointId,
    line.workergroupId,
    line.type,
    isoDay(line.day),
    line.quantity,
    line.unit,
    line.rate,
    line.amount,
  ];
}

/** RFC 4180 records end in CRLF; a missing value is an empty field. */
export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\r\n`;

export function csvRecord(line: ChargeLine): string {
  return `${values(line)
    .map((value) => (value === null ? '' : csvField(String(value))))
    .join(',')}\r\n`;
}

/** One JSON object per line; decimals stay strings (exact), missing values are null. */
export function ndjsonRecord(line: ChargeLine): string {
  const record: Record<string, string | number | null> = {};
  values(line).forEach((value, index) => (record[EXPORT_COLUMNS[index]] = value));
  return `${JSON.stringify(record)}\n`;
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

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};
