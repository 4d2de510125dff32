import { Transform, TransformCallback } from 'node:stream';
import {
  ChargeLine,
  CSV_HEADER,
  csvRecord,
  ExportFormat,
  ndjsonRecord,
} from '../domain/charge-export';

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
