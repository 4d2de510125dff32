import { Transform, TransformCallback } from 'node:stream';
import { ChargeLine, ExportFormat, isoDay } from '../domain/charge-export';

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

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

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

/** Lines are written in chunks of about this many bytes, not one socket write per row. */
const CHUNK_CHARS = 64 * 1024;

/**
 * ChargeLine objects in, text out (CSV with its header, or NDJSON). Backpressure passes
 * through: the transform holds at most one chunk and its stream buffers, so the cursor
 * upstream only fetches when the client has taken what came before.
 */
export class ChargeLineEncoder extends Transform {
  private pending: string;
  private readonly record: (line: ChargeLine) => string;

  constructor(format: ExportFormat) {
    super({ writableObjectMode: true, writableHighWaterMark: 256 });
    this.pending = format === 'csv' ? CSV_HEADER : '';
    this.record = format === 'csv' ? csvRecord : ndjsonRecord;
  }

  override _transform(line: ChargeLine, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += this.record(line);
    if (this.pending.length >= CHUNK_CHARS) {
      this.push(this.pending);
      this.pending = '';
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.pending) this.push(this.pending);
    done();
  }
}
