import {
  CHARGE_TYPES,
  ChargeItemTotals,
  ChargeType,
  ContractChargeTotals,
  ContractKind,
  ReportRow,
} from '../../domain/charge-report';

/** A row of pageStatement: a contract or a tree-format wrapper. */
export interface PageSqlRow {
  row_kind: 'contract' | 'wrapper';
  id: number | null;
  source: string;
  start_ts: string;
  end_ts: string;
  contracts: number | null;
  kind: ContractKind | null;
  label: string | null;
  template_id: number | null;
  endpoint_id: number | null;
  workergroup_id: number | null;
}

/** A row of contractChargesStatement: one type of one contract, or (type null) the contract. */
export interface ChargeSqlRow {
  contract_id: number;
  type: ChargeType | null;
  first_day: string;
  last_day: string;
  quantity: string;
  unit: string;
  rate: string;
  amount: string;
  days: number;
}

export function toReportRow(row: PageSqlRow): ReportRow {
  if (row.row_kind === 'wrapper') {
    return {
      rowKind: 'wrapper',
      source: row.source,
      start: Number(row.start_ts),
      end: Number(row.end_ts),
      contracts: row.contracts ?? 0,
    };
  }
  return {
    rowKind: 'contract',
    id: row.id as number,
    kind: row.kind as ContractKind,
    source: row.source,
    start: Number(row.start_ts),
    end: Number(row.end_ts),
    label: row.label,
    templateId: row.template_id,
    endpointId: row.endpoint_id,
    workergroupId: row.workergroup_id,
  };
}

export function toContractTotals(rows: ChargeSqlRow[]): Map<number, ContractChargeTotals> {
  const totals = new Map<number, ContractChargeTotals>();
  const items = new Map<number, ChargeItemTotals[]>();
  for (const row of rows) {
    if (row.type === null) {
      totals.set(row.contract_id, { days: row.days, amount: row.amount, items: [] });
      continue;
    }
    const list = items.get(row.contract_id) ?? [];
    list.push({
      type: row.type,
      firstDay: Number(row.first_day),
      lastDay: Number(row.last_day),
      quantity: row.quantity,
      unit: row.unit,
      rate: row.rate,
      amount: row.amount,
    });
    items.set(row.contract_id, list);
  }
  for (const [id, total] of totals) {
    total.items = (items.get(id) ?? []).sort(
      (a, b) => CHARGE_TYPES.indexOf(a.type) - CHARGE_TYPES.indexOf(b.type),
    );
  }
  return totals;
}
