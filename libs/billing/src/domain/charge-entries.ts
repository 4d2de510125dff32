import {
  contractDescription,
  itemDescription,
  parseGroupSource,
  wrapperDescription,
} from './charge-descriptions';
import {
  ChargeItemTotals,
  ChargeType,
  ContractChargeTotals,
  ContractEntryRow,
  ContractKind,
  DAY_SECONDS,
  WrapperEntryRow,
} from './charge-report';

/** Charges of one type of a contract in range: one line under its entry. */
export interface ChargeItem {
  type: ChargeType;
  /** Midnight of the first charged day in range (unix s). */
  start: number;
  /** End of the last charged day in range. */
  end: number;
  description: string;
  /** Exact sum rounded to 3 decimals, as decimal text ("37.344"). */
  amount: string;
}

/** A contract's entry (in tree format, a contract that is not serverless). */
export interface ContractEntry {
  entryKind: 'contract';
  kind: ContractKind;
  id: number;
  source: string;
  start: number;
  end: number;
  description: string;
  /** Exact sum of every charge in range, rounded once to 3 decimals. */
  amount: string;
  templateId: number | null;
  label: string | null;
  endpointId: number | null;
  workergroupId: number | null;
  items: ChargeItem[];
}

/** A tree-format wrapper: the matching serverless contracts of one endpoint or workergroup. */
export interface WrapperEntry {
  entryKind: 'wrapper';
  /** `endpoint-<id>` or `workergroup-<id>`. */
  source: string;
  groupType: 'endpoint' | 'workergroup';
  groupId: number;
  start: number;
  end: number;
  description: string;
  /** Exact sum of its contracts' charges in range, rounded once to 3 decimals. */
  amount: string;
}

export type ChargeEntry = ContractEntry | WrapperEntry;

/** One page of the charges report (docs/billing.md "Pagination"). */
export interface ChargeReportPage {
  /** Entries matching the filter across all pages of the walk. */
  total: number;
  /** Token of the next page; null on the last page. */
  nextToken: string | null;
  entries: ChargeEntry[];
}

export function chargeItem(item: ChargeItemTotals): ChargeItem {
  return {
    type: item.type,
    start: item.firstDay,
    // The end of the last charged day.
    end: item.lastDay + DAY_SECONDS,
    description: itemDescription(item),
    amount: item.amount,
  };
}

/** Serverless contracts in table format are `instance` entries carrying their endpoint/workergroup. */
export function contractEntry(
  row: ContractEntryRow,
  totals: ContractChargeTotals | undefined,
): ContractEntry {
  return {
    entryKind: 'contract',
    kind: row.kind,
    id: row.id,
    source: row.source,
    start: row.start,
    end: row.end,
    description: contractDescription(row.kind, row.id, totals?.days ?? 0),
    amount: totals?.amount ?? '0',
    templateId: row.templateId,
    label: row.label,
    endpointId: row.endpointId,
    workergroupId: row.workergroupId,
    items: (totals?.items ?? []).map(chargeItem),
  };
}

/** A wrapper's items stay empty above the contract level (docs/billing.md "Semantics and decisions"). */
export function wrapperEntry(row: WrapperEntryRow, amount: string | undefined): WrapperEntry {
  const { groupType, groupId } = parseGroupSource(row.source);
  return {
    entryKind: 'wrapper',
    source: row.source,
    groupType,
    groupId,
    start: row.start,
    end: row.end,
    description: wrapperDescription(row.source, row.contracts),
    amount: amount ?? '0',
  };
}
