import { Injectable } from '@nestjs/common';
import { ChargeExportQuery, exportedDays, exportFileName } from '../domain/charge-export';
import { ChargeOwner, chargeOwnerKey } from '../domain/contract';
import { ExportSlots } from './export-slots.service';
import { ChargeExportSource, ChargeLineStream } from './ports/charge-export.source.port';

export interface ChargeExport extends ChargeLineStream {
  fileName: string;
}

/**
 * GET /api/v0/charges/export/: opens the charge lines in range of the caller's context (docs/billing.md
 * "Owners") as a stream, within
 * the export budget (ExportSlots): the slot is held until the stream ends or is destroyed.
 */
@Injectable()
export class ExportChargesUseCase {
  constructor(
    private readonly source: ChargeExportSource,
    private readonly slots: ExportSlots,
  ) {}

  async execute(owner: ChargeOwner, query: ChargeExportQuery): Promise<ChargeExport> {
    const slot = this.slots.take(owner.userId);
    try {
      const stream = await this.source.open(chargeOwnerKey(owner), exportedDays(query));
      // 'close' follows the end as well as a destruction (the client went away, a cut).
      stream.lines.once('close', () => slot.release());
      if (stream.lines.destroyed) slot.release();
      return { ...stream, fileName: exportFileName(query) };
    } catch (error) {
      slot.release();
      throw error;
    }
  }
}
