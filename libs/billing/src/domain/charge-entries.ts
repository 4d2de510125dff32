import {
  contractDescription,
  itemDescription,
  parseGroupSource,
  wrapperDescription,
} from './charge-descriptions';
import {
  ChargeItemTotals,
  ContractChargeTotals,
  ContractEntryRow,
  DAY_SECONDS,
  WrapperEntryRow,
} from './charge-report';

/** One result of the report as the wire carries it (docs/billing.md). */
export interface ChargeEntry {
  start: number;
  end: number;
  type: string;
  source: string | null;
  description: string;
  amount: number;
  metadata: Record<string, string | number>;
  items: ChargeEntry[];
}

export interface ChargePage {
  success: true;
  count: number;
  total: number;
  next_token: string | null;
  results: ChargeEntry[];
}

/** A 3-decimal string from PostgreSQL numeric, as the JSON number the client reads. */
function money(decimal: string): number {
  return Number(decimal);
}

/** Keys present only when non-null on the contract. */
export function contractMetadata(row: ContractEntryRow): Record<string, string | number> {
  const metadata: Record<string, string | number> = {};
  if (row.templateId !== null) metadata.template_id = row.templateId;
  if (row.label !== null) metadata.label = row.label;
  if (row.endpointId !== null) metadata.endpoint_id = row.endpointId;
  if (row.workergroupId !== null) metadata.workergroup_id = row.workergroupId;
  return metadata;
}

export function presentItem(item: ChargeItemTotals): ChargeEntry {
  return {
    start: item.firstDay,
    // The end of the last charged day.
    end: item.lastDay + DAY_SECONDS,
    type: item.type,
    source: null,
    description: itemDescription(item),
    amount: money(item.amount),
    metadata: {},
    items: [],
  };
}

/** Serverless contracts in table format are `instance` rows carrying their endpoint/workergroup. */
export function presentContract(
  row: ContractEntryRow,
  totals: ContractChargeTotals | undefined,
): ChargeEntry {
  return {
    start: row.start,
    end: row.end,
    type: row.kind,
    source: row.source,
    description: contractDescription(row.kind, row.id, totals?.days ?? 0),
    amount: money(totals?.amount ?? '0'),
    metadata: contractMetadata(row),
    items: (totals?.items ?? []).map(presentItem),
  };
}

/** A tree-format wrapper: items stay empty above the contract level (spec "Charge entry"). */
export function presentWrapper(row: WrapperEntryRow, amount: string | undefined): ChargeEntry {
  const { groupType, groupId } = parseGroupSource(row.source);
  return {
    start: row.start,
    end: row.end,
    type: 'serverless',
    source: row.source,
    description: wrapperDescription(row.source, row.contracts),
    amount: money(amount ?? '0'),
    metadata: groupType === 'endpoint' ? { endpoint_id: groupId } : { workergroup_id: groupId },
    items: [],
  };
}
