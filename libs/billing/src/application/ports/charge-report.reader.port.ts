import { ChargeFilter, ContractChargeTotals, ReportRow, SortKey } from '../../domain/charge-report';

/**
 * Read side of the charges report. Every method is bounded by the page: `page` walks an
 * index from the keyset position, `contractCharges` and `wrapperAmounts` only touch the
 * page's entries; `total` counts the matching entries (see docs/billing.md).
 */
export abstract class ChargeReportReader {
  /** The current contract snapshot: contracts inserted later are invisible to the walk. */
  abstract snapshot(): Promise<string>;

  /** Up to `limit` entries strictly after `after`, in report order. */
  abstract page(
    userId: number,
    filter: ChargeFilter,
    snapshot: string,
    after: SortKey | null,
    limit: number,
  ): Promise<ReportRow[]>;

  /** Entries matching the filter across all pages. */
  abstract total(userId: number, filter: ChargeFilter, snapshot: string): Promise<number>;

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
