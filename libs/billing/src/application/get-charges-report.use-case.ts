import { Injectable } from '@nestjs/common';
import { SecretKeeper } from '@app/platform';
import { ChargePage, presentContract, presentWrapper } from '../domain/charge-entries';
import { ChargeQuery, sortKeyOf } from '../domain/charge-report';
import { PageCursorCodec } from './page-cursor';
import { ChargeReportReader } from './ports/charge-report.reader.port';

/**
 * GET /api/v0/charges/: one keyset page of the caller's charges report. Cost per page is
 * O(limit) rows plus the total (docs/billing.md, docs/performance.md).
 */
@Injectable()
export class GetChargesReportUseCase {
  private readonly cursors: PageCursorCodec;

  constructor(
    private readonly reader: ChargeReportReader,
    secrets: SecretKeeper,
  ) {
    this.cursors = new PageCursorCodec(secrets);
  }

  async execute(userId: number, query: ChargeQuery): Promise<ChargePage> {
    const cursor = query.afterToken ? this.cursors.decode(userId, query, query.afterToken) : null;
    const snapshot = cursor?.snapshot ?? (await this.reader.snapshot());
    // One row more than the page tells whether another page follows, without a count.
    const [rows, total] = await Promise.all([
      this.reader.page(userId, query, snapshot, cursor?.after ?? null, query.limit + 1),
      this.reader.total(userId, query, snapshot),
    ]);
    const hasMore = rows.length > query.limit;
    const pageRows = hasMore ? rows.slice(0, query.limit) : rows;

    const contractIds: number[] = [];
    const wrapperSources: string[] = [];
    for (const row of pageRows) {
      if (row.rowKind === 'contract') contractIds.push(row.id);
      else wrapperSources.push(row.source);
    }
    const [charges, wrapperAmounts] = await Promise.all([
      contractIds.length
        ? this.reader.contractCharges(contractIds, query.gte, query.lte)
        : Promise.resolve(new Map()),
      wrapperSources.length
        ? this.reader.wrapperAmounts(userId, wrapperSources, query.gte, query.lte)
        : Promise.resolve(new Map<string, string>()),
    ]);

    const results = pageRows.map((row) =>
      row.rowKind === 'contract'
        ? presentContract(row, charges.get(row.id))
        : presentWrapper(row, wrapperAmounts.get(row.source)),
    );
    const last = pageRows[pageRows.length - 1];
    return {
      success: true,
      count: results.length,
      total,
      next_token:
        hasMore && last
          ? this.cursors.encode(userId, query, {
              after: sortKeyOf(last, query.latestFirst),
              snapshot,
            })
          : null,
      results,
    };
  }
}
