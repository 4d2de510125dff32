import { Injectable } from '@nestjs/common';
import { LagTolerantReads } from '@app/platform';
import { ChargeReportReader, WalkHead } from '../application/ports/charge-report.reader.port';
import {
  CHARGE_TYPES,
  ChargeFilter,
  ChargeItemTotals,
  ChargeType,
  ContractChargeTotals,
  ContractKind,
  ReportRow,
  SortKey,
} from '../domain/charge-report';
import {
  contractChargesStatement,
  headStatement,
  pageStatement,
  SqlStatement,
  wrapperAmountsStatement,
} from './charge-report.sql';

interface PageSqlRow {
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

@Injectable()
export class SqlChargeReportReader extends ChargeReportReader {
  // The report tolerates a few seconds of lag: it reads where LagTolerantReads says
  // (the replica when there is a usable one; docs/operations.md "Read replica").
  constructor(private readonly reads: LagTolerantReads) {
    super();
  }

  private run<T>(statement: SqlStatement): Promise<T[]> {
    return this.reads.query<T>(statement.text, statement.values);
  }

  async head(userId: number, filter: ChargeFilter): Promise<WalkHead> {
    const [row] = await this.run<WalkHead>(headStatement(userId, filter));
    return row;
  }

  async page(
    userId: number,
    filter: ChargeFilter,
    snapshot: string,
    after: SortKey | null,
    limit: number,
  ): Promise<ReportRow[]> {
    const rows = await this.run<PageSqlRow>(pageStatement(userId, filter, snapshot, after, limit));
    return rows.map(toReportRow);
  }

  async contractCharges(
    contractIds: number[],
    gte: number,
    lte: number,
  ): Promise<Map<number, ContractChargeTotals>> {
    return toContractTotals(
      await this.run<ChargeSqlRow>(contractChargesStatement(contractIds, gte, lte)),
    );
  }

  async wrapperAmounts(
    userId: number,
    sources: string[],
    gte: number,
    lte: number,
  ): Promise<Map<string, string>> {
    const rows = await this.run<{ source: string; amount: string }>(
      wrapperAmountsStatement(userId, sources, gte, lte),
    );
    return new Map(rows.map((row) => [row.source, row.amount]));
  }
}
