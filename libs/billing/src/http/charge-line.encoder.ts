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

/** Days repeat on every contract of an export: each is formatted once (bounded). */
const ISO_DAYS = new Map<number, string>();
const MAX_ISO_DAYS = 4096;

function isoDayOnce(day: number): string {
  let text = ISO_DAYS.get(day);
  if (text === undefined) {
    if (ISO_DAYS.size >= MAX_ISO_DAYS) ISO_DAYS.clear();
    text = isoDay(day);
    ISO_DAYS.set(day, text);
  }
  return text;
}

/** A free-text cell: neutralised when asked, then quoted per RFC 4180 when needed. */
function textCell(value: string, escapeFormulas: boolean): string {
  return csvField(escapeFormulas ? neutralisedText(value) : value);
}

const idCell = (value: number | null): string => (value === null ? '' : String(value));

/** RFC 4180 records end in CRLF; a missing value is an empty field. */
export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}\r\n`;

/**
 * One CSV record, written field by field: this runs once per exported line (millions per
 * export), so no per-row arrays or closures. Ids are integers and the decimals are
 * PostgreSQL's numeric text (digits, a sign, a point): neither can need quoting, so only
 * the text cells go through neutralisation and quoting.
 */
export function csvRecord(line: ChargeLine, options: CsvOptions = DEFAULT_CSV_OPTIONS): string {
  const formulas = options.escapeFormulas;
  return (
    `${line.contractId},${textCell(line.contractType, formulas)},` +
    `${line.label === null ? '' : textCell(line.label, formulas)},` +
    `${idCell(line.endpointId)},${idCell(line.workergroupId)},${textCell(line.type, formulas)},` +
    `${isoDayOnce(line.day)},${line.quantity},${textCell(line.unit, formulas)},` +
    `${line.rate},${line.amount},${line.billed}\r\n`
  );
}

const jsonId = (value: number | null): string => (value === null ? 'null' : String(value));

/**
 * One JSON object per line, keys in EXPORT_COLUMNS order; decimals stay strings (exact),
 * missing values are null. Written as text (strings through JSON.stringify, which does
 * all the escaping), the same bytes as JSON.stringify of the record, without building it.
 */
export function ndjsonRecord(line: ChargeLine): string {
  const text = JSON.stringify;
  return (
    `{"contract_id":${line.contractId},"contract_type":${text(line.contractType)},` +
    `"label":${line.label === null ? 'null' : text(line.label)},` +
    `"endpoint_id":${jsonId(line.endpointId)},"workergroup_id":${jsonId(line.workergroupId)},` +
    `"type":${text(line.type)},"day":"${isoDayOnce(line.day)}",` +
    `"quantity":${text(line.quantity)},"unit":${text(line.unit)},"rate":${text(line.rate)},` +
    `"amount":${text(line.amount)},"billed_amount":${text(line.billed)}}\n`
  );
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
