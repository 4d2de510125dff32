import { Injectable } from '@nestjs/common';
import { ChargeExportQuery, exportFileName } from '../domain/charge-export';
import { ChargeExportSource, ChargeLineStream } from './ports/charge-export.source.port';

export interface ChargeExport extends ChargeLineStream {
  fileName: string;
}

/** GET /api/v0/charges/export/: opens the caller's charge lines in range as a stream. */
@Injectable()
export class ExportChargesUseCase {
  constructor(private readonly source: ChargeExportSource) {}

  async execute(userId: number, query: ChargeExportQuery): Promise<ChargeExport> {
    const stream = await this.source.open(userId, query);
    return { ...stream, fileName: exportFileName(query) };
  }
}
