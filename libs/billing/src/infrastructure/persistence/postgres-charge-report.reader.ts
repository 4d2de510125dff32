import { Injectable } from '@nestjs/common';
import { LagTolerantReads } from '@app/platform';
import { ChargeReportReader, WalkHead } from '../../application/ports/charge-report.reader.port';
import { ChargeFilter, ContractChargeTotals, ReportRow, SortKey } from '../../domain/charge-report';
import { ChargeSqlRow, PageSqlRow, toContractTotals, toReportRow } from './charge-report.mapper';
import {
  contractChargesStatement,
  headStatement,
  pageStatement,
  wrapperAmountsStatement,
} from './charge-report.sql';

/**
 * Every page runs these few statement texts with new parameters: named statements skip
 * their planning after the first runs on a connection (docs/performance.md).
 */
const PREPARED = { prepare: true };

@Injectable()
export class PostgresChargeReportReader extends ChargeReportReader {
  // The report tolerates a few seconds of lag: it reads where LagTolerantReads says
  // (the replica when there is a usable one; docs/operations.md "Read replica").
  constructor(private readonly reads: LagTolerantReads) {
    super();
  }

  async head(ownerKey: number, filter: ChargeFilter): Promise<WalkHead> {
    const { text, values } = headStatement(ownerKey, filter);
    const [row] = await this.reads.rows<WalkHead>(text, values, PREPARED);
    return row;
  }

  async page(
    ownerKey: number,
    filter: ChargeFilter,
    snapshot: string,
    after: SortKey | null,
    limit: number,
  ): Promise<ReportRow[]> {
    const { text, values } = pageStatement(ownerKey, filter, snapshot, after, limit);
    return (await this.reads.rows<PageSqlRow>(text, values, PREPARED)).map(toReportRow);
  }

  async contractCharges(
    contractIds: number[],
    gte: number,
    lte: number,
  ): Promise<Map<number, ContractChargeTotals>> {
    const { text, values } = contractChargesStatement(contractIds, gte, lte);
    return toContractTotals(await this.reads.rows<ChargeSqlRow>(text, values, PREPARED));
  }

  async wrapperAmounts(
    ownerKey: number,
    sources: string[],
    gte: number,
    lte: number,
  ): Promise<Map<string, string>> {
    const { text, values } = wrapperAmountsStatement(ownerKey, sources, gte, lte);
    const rows = await this.reads.rows<{ source: string; amount: string }>(text, values, PREPARED);
    return new Map(rows.map((row) => [row.source, row.amount]));
  }
}
