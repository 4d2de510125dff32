import { ChargeStatementReader } from '../application/ports/charge-statement.reader.port';
import { CHARGE_CATEGORIES } from '../domain/charge-report';
import {
  NO_KEY,
  periodStart,
  StatementGrouping,
  StatementQuery,
  StatementSum,
} from '../domain/charge-statement';
import { Contract, contractOwnerKey, DailyCharge } from '../domain/contract';
import { billedSum, chargeCategory, InMemoryContracts } from './in-memory-contracts';

/** The contract's key in a grouping; NO_KEY where it has no such value. */
function keyOf(contract: Contract, groupBy: StatementGrouping): string {
  switch (groupBy) {
    case 'type':
      return chargeCategory(contract);
    case 'endpoint':
      return contract.endpointId === null ? NO_KEY : `endpoint-${contract.endpointId}`;
    case 'workergroup':
      return contract.workergroupId === null ? NO_KEY : `workergroup-${contract.workergroupId}`;
    case 'label':
      return contract.label ?? NO_KEY;
  }
}

const rounded = billedSum;

/**
 * The statement's sums over plain arrays: per (period, key), per period and over the range,
 * each a sum of billed amounts (docs/billing.md "Billed amounts"). The range's total is always there ("0" without
 * charges), as the SQL's empty grouping set answers.
 */
export class InMemoryChargeStatementReader extends ChargeStatementReader {
  /** The queries asked, in order. */
  readonly asked: Array<{ ownerKey: number; query: StatementQuery }> = [];

  constructor(private readonly contracts = new InMemoryContracts()) {
    super();
  }

  add(contract: Contract, charges: DailyCharge[]): void {
    this.contracts.add(contract, charges);
  }

  async sums(ownerKey: number, query: StatementQuery): Promise<StatementSum[]> {
    this.asked.push({ ownerKey, query });
    const categories = query.categories ?? CHARGE_CATEGORIES;
    const cells = new Map<number, Map<string, string[]>>();
    // Two dimensions: a cell's map key is the JSON pair [key, subkey].
    const cellKey = (contract: Contract) =>
      query.thenBy === undefined
        ? keyOf(contract, query.groupBy)
        : JSON.stringify([keyOf(contract, query.groupBy), keyOf(contract, query.thenBy)]);
    const all: string[] = [];
    for (const { contract, charges } of this.contracts.all()) {
      if (contractOwnerKey(contract) !== ownerKey || !categories.includes(chargeCategory(contract)))
        continue;
      for (const charge of charges) {
        if (charge.day < query.gte || charge.day > query.lte) continue;
        const bucket = periodStart(charge.day, query.period);
        const keys = cells.get(bucket) ?? new Map<string, string[]>();
        const key = cellKey(contract);
        keys.set(key, [...(keys.get(key) ?? []), charge.amount]);
        cells.set(bucket, keys);
        all.push(charge.amount);
      }
    }
    const sums: StatementSum[] = [];
    for (const [bucket, keys] of cells) {
      for (const [key, amounts] of keys) {
        if (query.thenBy === undefined) sums.push({ bucket, key, amount: rounded(amounts) });
        else {
          const [first, second] = JSON.parse(key) as [string, string];
          sums.push({ bucket, key: first, subkey: second, amount: rounded(amounts) });
        }
      }
      sums.push({ bucket, key: null, amount: rounded([...keys.values()].flat()) });
    }
    sums.push({ bucket: null, key: null, amount: all.length ? rounded(all) : '0' });
    return sums;
  }
}
