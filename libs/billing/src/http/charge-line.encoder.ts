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
  'billed_amount',
] as const;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/** RFC 4180: a field holding a comma, a double quote, CR or LF is quoted, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * How the CSV is written: `escapeFormulas` (default on) neutralises text cells a
 * spreadsheet would run as a formula; `bom` (default off) starts the file with a UTF-8 byte
 * order mark, which spreadsheet tools read as "this file is UTF-8".
 */
export interface CsvOptions {
  escapeFormulas: boolean;
  bom: boolean;
}

export const DEFAULT_CSV_OPTIONS: CsvOptions = { escapeFormulas: true, bom: false };

/**
 * The characters a spreadsheet reads as the start of a formula (OWASP "CSV Injection"):
 * such a text cell is prefixed with a single quote, which spreadsheets show as text and
 * do not run. Only text cells: numbers (ids, quantities, rates, amounts, negative ones
 * included) stay exact.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralisedText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

type Cell = { text: string } | string | number | null;

/** The row's cells; `{text}` marks the free-text ones (the rest are numbers, dates, enums). */
function values(line: ChargeLine): Cell[] {
  return [
    line.contractId,
    { text: line.contractType },
    line.label === null ? null : { text: line.label },
    line.endpointId,
    line.workergroupId,
    { text: line.type },
    isoDay(line.day),
    line.quantity,
    { text: line.unit },
    line.rate,
    line.amount,
    line.billed,
  ];
}

const plain = (cell: Cell): string | number | null =>
  cell !== null && typeof cell === 'object' ? cell.text : cell;

/** RFC 4180 records end in CRLF; a missing value is an empty field. */
export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\r\n`;

export function csvRecord(line: ChargeLine, options: CsvOptions = DEFAULT_CSV_OPTIONS): string {
  return `${values(line)
    .map((cell) => {
      if (cell === null) return '';
      if (typeof cell === 'object')
        return csvField(options.escapeFormulas ? neutralisedText(cell.text) : cell.text);
      return csvField(String(cell));
    })
    .join(',')}\r\n`;
}

/** One JSON object per line; decimals stay strings (exact), missing values are null. */
export function ndjsonRecord(line: ChargeLine): string {
  const record: Record<string, string | number | null> = {};
  values(line).forEach((cell, index) => (record[EXPORT_COLUMNS[index]] = plain(cell)));
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

  constructor(format: ExportFormat, csv: CsvOptions = DEFAULT_CSV_OPTIONS) {
    super({ writableObjectMode: true, writableHighWaterMark: 256 });
    this.pending = format === 'csv' ? `${csv.bom ? '\uFEFF' : ''}${CSV_HEADER}` : '';
    this.record = format === 'csv' ? (line) => csvRecord(line, csv) : ndjsonRecord;
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
