import { ChargeReportReader, WalkHead } from '../application/ports/charge-report.reader.port';
import { threeDecimals } from '../domain/charge-descriptions';
import {
  CHARGE_TYPES,
  ChargeFilter,
  ChargeItemTotals,
  compareRows,
  ContractChargeTotals,
  ContractEntryRow,
  isAfter,
  ReportRow,
  SortKey,
  WrapperEntryRow,
} from '../domain/charge-report';
import { Contract, contractOwnerKey, DailyCharge } from '../domain/contract';
import {
  billedSum,
  chargeCategory,
  groupKey,
  InMemoryContracts,
  sumDecimals,
} from './in-memory-contracts';

const SCALE = 10n ** 12n;

function units(decimal: string): bigint {
  const [whole, fraction] = sumDecimals([decimal]).replace('-', '').split('.');
  const magnitude = BigInt(whole) * SCALE + BigInt(fraction);
  return decimal.startsWith('-') ? -magnitude : magnitude;
}

/** amount / quantity rounded half away from zero to 6 decimals, as PostgreSQL's round(x, 6). */
function effectiveRate(amount: string, quantity: string): string {
  const a = units(amount);
  const q = units(quantity);
  const negative = a < 0n !== q < 0n && a !== 0n;
  const [absA, absQ] = [a < 0n ? -a : a, q < 0n ? -q : q];
  const scaled = (absA * 1_000_000n * 2n + absQ) / (2n * absQ);
  const digits = scaled.toString().padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

function itemTotals(type: ChargeItemTotals['type'], charges: DailyCharge[]): ChargeItemTotals {
  const days = charges.map((charge) => charge.day);
  const rates = charges.map((charge) => charge.rate);
  const amount = sumDecimals(charges.map((charge) => charge.amount));
  const quantity = sumDecimals(charges.map((charge) => charge.quantity));
  const oneRate = rates.every((rate) => units(rate) === units(rates[0]));
  return {
    type,
    firstDay: Math.min(...days),
    lastDay: Math.max(...days),
    quantity: threeDecimals(quantity),
    unit: charges.map((charge) => charge.unit).sort()[0],
    // The rate, or the effective rate when it changed within the range (as the SQL does).
    rate: oneRate ? rates[0] : effectiveRate(amount, quantity),
    amount: billedSum(charges.map((charge) => charge.amount)),
  };
}

/**
 * The report's semantics over plain arrays: the fake the use-case tests run on, held to the
 * PostgreSQL reader's answers by testing/charge-report-reader.contract.ts. A snapshot is
 * the number of writes made when the walk's first page ran.
 */
export class InMemoryChargeReportReader extends ChargeReportReader {
  constructor(private readonly contracts = new InMemoryContracts()) {
    super();
  }

  add(contract: Contract, charges: DailyCharge[]): void {
    this.contracts.add(contract, charges);
  }

  async head(ownerKey: number, filter: ChargeFilter): Promise<WalkHead> {
    const snapshot = String(this.contracts.lastSeq);
    return { snapshot, total: this.rows(ownerKey, filter, snapshot).length };
  }

  private matching(ownerKey: number, filter: ChargeFilter, snapshot: string) {
    return this.contracts
      .all()
      .filter(
        (entry) =>
          contractOwnerKey(entry.contract) === ownerKey &&
          entry.seq <= Number(snapshot) &&
          entry.charges.some((charge) => charge.day >= filter.gte && charge.day <= filter.lte) &&
          (filter.categories === null ||
            filter.categories.includes(chargeCategory(entry.contract))),
      );
  }

  private rows(ownerKey: number, filter: ChargeFilter, snapshot: string): ReportRow[] {
    const rows: ReportRow[] = [];
    const wrappers = new Map<string, WrapperEntryRow>();
    for (const { contract } of this.matching(ownerKey, filter, snapshot)) {
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
    ownerKey: number,
    filter: ChargeFilter,
    snapshot: string,
    after: SortKey | null,
    limit: number,
  ): Promise<ReportRow[]> {
    return this.rows(ownerKey, filter, snapshot)
      .filter((row) => after === null || isAfter(row, after, filter.latestFirst))
      .slice(0, limit);
  }

  async contractCharges(
    contractIds: number[],
    gte: number,
    lte: number,
  ): Promise<Map<number, ContractChargeTotals>> {
    const result = new Map<number, ContractChargeTotals>();
    for (const { contract, charges } of this.contracts.all()) {
      if (!contractIds.includes(contract.id)) continue;
      const inRange = charges.filter((charge) => charge.day >= gte && charge.day <= lte);
      if (inRange.length === 0) continue;
      result.set(contract.id, {
        days: new Set(inRange.map((charge) => charge.day)).size,
        amount: billedSum(inRange.map((charge) => charge.amount)),
        items: CHARGE_TYPES.flatMap((type) => {
          const ofType = inRange.filter((charge) => charge.type === type);
          return ofType.length === 0 ? [] : [itemTotals(type, ofType)];
        }),
      });
    }
    return result;
  }

  async wrapperAmounts(
    ownerKey: number,
    sources: string[],
    gte: number,
    lte: number,
  ): Promise<Map<string, string>> {
    const amounts = new Map<string, string[]>();
    for (const { contract, charges } of this.contracts.all()) {
      const key = groupKey(contract);
      if (contractOwnerKey(contract) !== ownerKey || key === null || !sources.includes(key))
        continue;
      const inRange = charges.filter((charge) => charge.day >= gte && charge.day <= lte);
      if (inRange.length === 0) continue;
      amounts.set(key, [...(amounts.get(key) ?? []), ...inRange.map((charge) => charge.amount)]);
    }
    return new Map([...amounts].map(([key, list]) => [key, billedSum(list)]));
  }
}
