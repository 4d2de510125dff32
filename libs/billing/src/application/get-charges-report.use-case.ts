import { Injectable, Optional } from '@nestjs/common';
import { LagTolerantReads, SecretKeeper } from '@app/platform';
import { ChargeReportPage, contractEntry, wrapperEntry } from '../domain/charge-entries';
import { ChargeQuery, sortKeyOf } from '../domain/charge-report';
import { PageCursor, PageCursorCodec } from './page-cursor';
import { ChargeReportReader } from './ports/charge-report.reader.port';

/**
 * GET /api/v0/charges/: one keyset page of the caller's charges report. Cost per page is
 * O(limit) rows, plus O(days of history) for the total on page 1 (docs/billing.md).
 */
@Injectable()
export class GetChargesReportUseCase {
  private readonly cursors: PageCursorCodec;

  constructor(
    private readonly reader: ChargeReportReader,
    secrets: SecretKeeper,
    @Optional() private readonly reads?: LagTolerantReads,
  ) {
    this.cursors = new PageCursorCodec(secrets);
  }

  async execute(userId: number, query: ChargeQuery): Promise<ChargeReportPage> {
    const cursor = query.afterToken ? this.cursors.decode(userId, query, query.afterToken) : null;
    // One page is read in one snapshot of one node: the replica when it is usable and has
    // replayed everything the walk's snapshot sees, else the primary (docs/billing.md).
    if (!this.reads) return this.page(userId, query, cursor);
    return this.reads.run(() => this.page(userId, query, cursor), { mustSee: cursor?.snapshot });
  }

  private async page(
    userId: number,
    query: ChargeQuery,
    cursor: PageCursor | null,
  ): Promise<ChargeReportPage> {
    // Page 1 fixes the walk's snapshot and counts its total; later pages carry both.
    const head = cursor ?? (await this.reader.head(userId, query));
    // One row more than the page tells whether another page follows.
    const rows = await this.reader.page(
      userId,
      query,
      head.snapshot,
      cursor?.after ?? null,
      query.limit + 1,
    );
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

    const entries = pageRows.map((row) =>
      row.rowKind === 'contract'
        ? contractEntry(row, charges.get(row.id))
        : wrapperEntry(row, wrapperAmounts.get(row.source)),
    );
    const last = pageRows[pageRows.length - 1];
    return {
      total: head.total,
      nextToken:
        hasMore && last
          ? this.cursors.encode(userId, query, {
              after: sortKeyOf(last, query.latestFirst),
              snapshot: head.snapshot,
              total: head.total,
            })
          : null,
      entries,
    };
  }
}
