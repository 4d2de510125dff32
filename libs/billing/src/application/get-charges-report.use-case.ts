import { Injectable, Optional } from '@nestjs/common';
import { LagTolerantReads, SecretKeeper } from '@app/platform';
import { ChargeReportPage, contractEntry, wrapperEntry } from '../domain/charge-entries';
import { ChargeQuery, sortKeyOf } from '../domain/charge-report';
import { ChargeOwner, chargeOwnerKey } from '../domain/contract';
import { rangeDays } from '../domain/charge-statement';
import { PageCursor, PageCursorCodec } from './page-cursor.service';
import { ChargeReportReader } from './ports/charge-report.reader.port';

/**
 * GET /api/v0/charges/: one keyset page of the charges report of the caller's context
 * (its team's contracts in a team's context, else the user's own; docs/billing.md "Owners"). Cost per page is
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

  async execute(owner: ChargeOwner, query: ChargeQuery): Promise<ChargeReportPage> {
    const ownerKey = chargeOwnerKey(owner);
    const cursor = query.afterToken ? this.cursors.decode(ownerKey, query, query.afterToken) : null;
    // Charges are daily, at UTC midnights: a range without one holds none. (The summaries'
    // day-span counts would otherwise count the contracts charged on both sides of it.)
    if (!rangeDays(query.gte, query.lte)) return { total: 0, nextToken: null, entries: [] };
    // One page is read in one snapshot of one node: the replica when it is usable and has
    // replayed everything the walk's snapshot sees, else the primary (docs/billing.md).
    if (!this.reads) return this.page(ownerKey, query, cursor);
    return this.reads.run(() => this.page(ownerKey, query, cursor), { mustSee: cursor?.snapshot });
  }

  private async page(
    ownerKey: number,
    query: ChargeQuery,
    cursor: PageCursor | null,
  ): Promise<ChargeReportPage> {
    // Page 1 fixes the walk's snapshot and counts its total; later pages carry both.
    const head = cursor ?? (await this.reader.head(ownerKey, query));
    // One row more than the page tells whether another page follows.
    const rows = await this.reader.page(
      ownerKey,
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
        ? this.reader.wrapperAmounts(ownerKey, wrapperSources, query.gte, query.lte)
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
          ? this.cursors.encode(ownerKey, query, {
              after: sortKeyOf(last, query.latestFirst),
              snapshot: head.snapshot,
              total: head.total,
            })
          : null,
      entries,
    };
  }
}
