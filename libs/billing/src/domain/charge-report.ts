/** The three disjoint classes of the `type` filter (serverless = instance under an endpoint or workergroup). */
export const CHARGE_CATEGORIES = ['instance', 'volume', 'serverless'] as const;
export type ChargeCategory = (typeof CHARGE_CATEGORIES)[number];

export const CHARGE_FORMATS = ['table', 'tree'] as const;
export type ChargeFormat = (typeof CHARGE_FORMATS)[number];

export const CHARGE_TYPES = ['gpu', 'disk', 'bwd', 'bwu'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

export type ContractKind = 'instance' | 'volume';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;
export const DAY_SECONDS = 86_400;

/** What selects the entries of a report: the same filter on every page of one walk. */
export interface ChargeFilter {
  /** Charge days d with gte <= d <= lte (unix seconds). */
  gte: number;
  lte: number;
  /** Sorted, without duplicates; null means every class. */
  categories: ChargeCategory[] | null;
  format: ChargeFormat;
  latestFirst: boolean;
}

export interface ChargeQuery extends ChargeFilter {
  limit: number;
  afterToken: string | null;
}

/**
 * Position of an entry in the report order: `value` is the end (latest first) or the
 * start (oldest first) of the entry, ties broken by `source` in byte order.
 */
export interface SortKey {
  value: number;
  source: string;
}

/** A contract row of a page (in table format every contract, in tree format the non-serverless ones). */
export interface ContractEntryRow {
  rowKind: 'contract';
  id: number;
  kind: ContractKind;
  source: string;
  start: number;
  end: number;
  label: string | null;
  templateId: number | null;
  endpointId: number | null;
  workergroupId: number | null;
}

/** A tree-format wrapper: the matching serverless contracts of one endpoint or workergroup. */
export interface WrapperEntryRow {
  rowKind: 'wrapper';
  /** `endpoint-<id>` or `workergroup-<id>`. */
  source: string;
  start: number;
  end: number;
  contracts: number;
}

export type ReportRow = ContractEntryRow | WrapperEntryRow;

/** Charges of one type of one contract, summed over the days in range. Decimals are strings. */
export interface ChargeItemTotals {
  type: ChargeType;
  firstDay: number;
  lastDay: number;
  /** Rounded to 3 decimals, e.g. "96.000". */
  quantity: string;
  unit: string;
  /** The rate, or amount/quantity when the rate changed within the range. */
  rate: string;
  /** Rounded to 3 decimals. */
  amount: string;
}

export interface ContractChargeTotals {
  /** Distinct charged days in range. */
  days: number;
  /** Exact sum of every charge in range, rounded to 3 decimals once. */
  amount: string;
  items: ChargeItemTotals[];
}

export function sortKeyOf(row: ReportRow, latestFirst: boolean): SortKey {
  return { value: latestFirst ? row.end : row.start, source: row.source };
}

/** Report order: end descending (latest first) or start ascending, ties by source bytes. */
export function compareRows(a: ReportRow, b: ReportRow, latestFirst: boolean): number {
  const byValue = latestFirst ? b.end - a.end : a.start - b.start;
  if (byValue !== 0) return byValue;
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/** True when `row` comes strictly after the cursor position in report order. */
export function isAfter(row: ReportRow, key: SortKey, latestFirst: boolean): boolean {
  const value = latestFirst ? row.end : row.start;
  if (value !== key.value) return latestFirst ? value < key.value : value > key.value;
  return row.source > key.source;
}
