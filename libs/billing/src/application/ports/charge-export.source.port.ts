import { Readable } from 'node:stream';
import { ChargeExportQuery } from '../../domain/charge-export';

export interface ChargeLineStream {
  /** Lines the range holds when the export starts (for progress; the stream is the truth). */
  expectedLines: number;
  /**
   * Object-mode stream of ChargeLine read from a database cursor: it reads ahead one batch
   * and waits for its consumer. Ending or destroying it releases its connection; destroyed
   * before the end (client gone), the connection is closed so the server stops at once.
   */
  lines: Readable;
}

/** The owner's daily charge lines (ownerKey: chargeOwnerKey) in range, in export order (docs/billing.md "Export"). */
export abstract class ChargeExportSource {
  abstract open(ownerKey: number, query: ChargeExportQuery): Promise<ChargeLineStream>;
}
