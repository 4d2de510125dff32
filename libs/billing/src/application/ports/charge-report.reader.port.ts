import { ChargeFilter, ContractChargeTotals, ReportRow, SortKey } from '../../domain/charge-report';

/** What the first page of a walk fixes for all of its pages. */
export interface WalkHead {
  /** Opaque: later pages see exactly the contracts committed in it. */
  snapshot: string;
  /** Entries matching the filter in that snapshot, across all pages. */
  total: number;
}

/** Everything one page of the report needs. */
export interface PageRead {
  /** Page 1 only: the walk's snapshot and total, read with the page. */
  head: WalkHead | null;
  /** Up to `limit + 1` entries: one more than the page tells that another page follows. */
  rows: ReportRow[];
  /** Charges of the contracts among the first `limit` rows. */
  charges: Map<number, ContractChargeTotals>;
  /** Amounts of the wrappers among the first `limit` rows. */
  wrapperAmounts: Map<string, string>;
}

/**
 * Read side of the charges report. Every method is bounded by the page or by the days of
 * the user's history, never by the number of contracts before the page: `head` sums a
 * per-day summary, `page` walks an index from the keyset position, `contractCharges` and
 * `wrapperAmounts` only touch the page's entries (see docs/billing.md).
 */
export abstract class ChargeReportReader {
  /**
   * One page: the head on page 1 (no cursor), `limit + 1` entries after the cursor, and
   * the charges and amounts of the first `limit`. Composed of the methods below, one call
   * after the other; a reader may do it all in one round trip.
   */
  async readPage(
    userId: number,
    filter: ChargeFilter,
    cursor: { snapshot: string; after: SortKey } | null,
    limit: number,
  ): Promise<PageRead> {
    const head = cursor ? null : await this.head(userId, filter);
    const snapshot = cursor?.snapshot ?? (head as WalkHead).snapshot;
    const rows = await this.page(userId, filter, snapshot, cursor?.after ?? null, limit + 1);
    const contractIds: number[] = [];
    const wrapperSources: string[] = [];
    for (const row of rows.slice(0, limit)) {
      if (row.rowKind === 'contract') contractIds.push(row.id);
      else wrapperSources.push(row.source);
    }
    const [charges, wrapperAmounts] = await Promise.all([
      contractIds.length
        ? this.contractCharges(contractIds, filter.gte, filter.lte)
        : Promise.resolve(new Map<number, ContractChargeTotals>()),
      wrapperSources.length
        ? this.wrapperAmounts(userId, wrapperSources, filter.gte, filter.lte)
        : Promise.resolve(new Map<string, string>()),
    ]);
    return { head, rows, charges, wrapperAmounts };
  }

  /** Run for the first page only: the walk's snapshot and its total. */
  abstract head(userId: number, filter: ChargeFilter): Promise<WalkHead>;

  /** Up to `limit` entries strictly after `after`, in report order, as of `snapshot`. */
  abstract page(
    userId: number,
    filter: ChargeFilter,
    snapshot: string,
    after: SortKey | null,
    limit: number,
  ): Promise<ReportRow[]>;

  /** Per contract: its charges in [gte, lte] summed per type (exact, rounded at the end). */
  abstract contractCharges(
    contractIds: number[],
    gte: number,
    lte: number,
  ): Promise<Map<number, ContractChargeTotals>>;

  /** Per wrapper source: the exact sum of its serverless charges in [gte, lte], rounded to 3 decimals. */
  abstract wrapperAmounts(
    userId: number,
    sources: string[],
    gte: number,
    lte: number,
  ): Promise<Map<string, string>>;
}
