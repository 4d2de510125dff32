import { ChargeReportReader, WalkHead } from '../application/ports/charge-report.reader.port';
import {
  CHARGE_TYPES,
  ChargeFilter,
  compareRows,
  ContractChargeTotals,
  ContractEntryRow,
  isAfter,
  ReportRow,
  SortKey,
} from '../domain/charge-report';
import { threeDecimals } from '../domain/charge-descriptions';
import { Contract, DailyCharge } from '../domain/contract';

/** Exact decimal sum of decimal strings, in units of 1e-12 (enough for the fakes' data). */
function sum(values: string[]): string {
  const scale = 12;
  let total = 0n;
  for (const value of values) {
    const negative = value.startsWith('-');
    const [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
    const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
    total += negative ? -units : units;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

function category(contract: Contract): string {
  if (contract.kind === 'volume') return 'volume';
  return contract.endpointId !== null || contract.workergroupId !== null
    ? 'serverless'
    : 'instance';
}

function groupKey(contract: Contract): string | null {
  if (category(contract) !== 'serverless') return null;
  return contract.endpointId !== null
    ? `endpoint-${contract.endpointId}`
    : `workergroup-${contract.workergroupId}`;
}

/** The report's semantics over plain arrays, for use-case tests. */
export class InMemoryChargeReportReader extends ChargeReportReader {
  private readonly contracts: Array<{ seq: number; contract: Contract; charges: DailyCharge[] }> =
    [];
  private seq = 0;

  add(contract: Contract, charges: DailyCharge[]): void {
    this.seq += 1;
    this.contracts.push({ seq: this.seq, contract, charges });
  }

  async head(userId: number, filter: ChargeFilter): Promise<WalkHead> {
    const snapshot = String(this.seq);
    return { snapshot, total: this.rows(userId, filter, snapshot).length };
  }

  private matching(userId: number, filter: ChargeFilter, snapshot: string) {
    return this.contracts.filter(
      (entry) =>
        entry.contract.userId === userId &&
        entry.seq <= Number(snapshot) &&
        entry.charges.some((charge) => charge.day >= filter.gte && charge.day <= filter.lte) &&
        (filter.categories === null ||
          filter.categories.includes(category(entry.contract) as never)),
    );
  }

  private rows(userId: number, filter: ChargeFilter, snapshot: string): ReportRow[] {
    const rows: ReportRow[] = [];
    const wrappers = new Map<string, ReportRow & { rowKind: 'wrapper' }>();
    for (const { contract } of this.matching(userId, filter, snapshot)) {
      const key = filter.format === 'tree' ? groupKey(contract) : null;
      if (key === null) {
        const row: ContractEntryRow = {
          rowKind: 'contract',
          id: contract.id,
          kind: contract.kind,
          source: `${contract.kind}-${contract.id}`,
          start: contract.start,
          end: contract.end,
          label: contract.label,
          templateId: contract.templateId,
          endpointId: contract.endpointId,
          workergroupId: contract.workergroupId,
        };
        rows.push(row);
        continue;
      }
      const known = wrappers.get(key);
      wrappers.set(key, {
        rowKind: 'wrapper',
        source: key,
        start: Math.min(known?.start ?? Infinity, contract.start),
        end: Math.max(known?.end ?? -Infinity, contract.end),
        contracts: (known?.contracts ?? 0) + 1,
      });
    }
    return [...rows, ...wrappers.values()].sort((a, b) => compareRows(a, b, filter.latestFirst));
  }

  async page(
    userId: number,
    filter: ChargeFilter,
    snapshot: string,
    after: SortKey | null,
    limit: number,
  ): Promise<ReportRow[]> {
    return this.rows(userId, filter, snapshot)
      .filter((row) => after === null || isAfter(row, after, filter.latestFirst))
      .slice(0, limit);
  }

  async contractCharges(
    contractIds: number[],
    gte: number,
    lte: number,
  ): Promise<Map<number, ContractChargeTotals>> {
    const result = new Map<number, ContractChargeTotals>();
    for (const { contract, charges } of this.contracts) {
      if (!contractIds.includes(contract.id)) continue;
      const inRange = charges.filter((charge) => charge.day >= gte && charge.day <= lte);
      result.set(contract.id, {
        days: new Set(inRange.map((charge) => charge.day)).size,
        amount: threeDecimals(sum(inRange.map((charge) => charge.amount))),
        items: CHARGE_TYPES.flatMap((type) => {
          const ofType = inRange.filter((charge) => charge.type === type);
          if (ofType.length === 0) return [];
          const days = ofType.map((charge) => charge.day);
          return [
            {
              type,
              firstDay: Math.min(...days),
              lastDay: Math.max(...days),
              quantity: threeDecimals(sum(ofType.map((charge) => charge.quantity))),
              unit: ofType[0].unit,
              rate: ofType[0].rate,
              amount: threeDecimals(sum(ofType.map((charge) => charge.amount))),
            },
          ];
        }),
      });
    }
    return result;
  }

  async wrapperAmounts(
    userId: number,
    sources: string[],
    gte: number,
    lte: number,
  ): Promise<Map<string, string>> {
    const amounts = new Map<string, string[]>();
    for (const { contract, charges } of this.contracts) {
      const key = groupKey(contract);
      if (contract.userId !== userId || key === null || !sources.includes(key)) continue;
      const list = amounts.get(key) ?? [];
      list.push(
        ...charges.filter((charge) => charge.day >= gte && charge.day <= lte).map((c) => c.amount),
      );
      amounts.set(key, list);
    }
    return new Map([...amounts].map(([key, list]) => [key, threeDecimals(sum(list))]));
  }
}
