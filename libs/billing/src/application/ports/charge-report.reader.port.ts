import { ChargeFilter, ContractChargeTotals, ReportRow, SortKey } from '../../domain/charge-report';

/** What the first page of a walk fixes for all of its pages. */
export interface WalkHead {
  /** Opaque: later pages see exactly the contracts committed in it. */
  snapshot: string;
  /** Entries matching the filter in that snapshot, across all pages. */
  total: number;
}

/**
 * Read side of the charges report. Every method is bounded by the page or by the days of
 * the owner's history (ownerKey: chargeOwnerKey), never by the number of contracts before the page: `head` sums a
 * per-day summary, `page` walks an index from the keyset position, `contractCharges` and
 * `wrapperAmounts` only touch the page's entries (see docs/billing.md).
 */
export abstract class ChargeReportReader {
  /** Run for the first page only: the walk's snapshot and its total. */
  abstract head(ownerKey: number, filter: ChargeFilter): Promise<WalkHead>;

  /** Up to `limit` entries strictly after `after`, in report order, as of `snapshot`. */
  abstract page(
    ownerKey: number,
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
    ownerKey: number,
    sources: string[],
    gte: number,
    lte: number,
  ): Promise<Map<string, string>>;
}
