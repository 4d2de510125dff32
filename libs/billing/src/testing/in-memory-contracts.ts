import { threeDecimals } from '../domain/charge-descriptions';
import { ChargeCategory } from '../domain/charge-report';
import { Contract, DailyCharge } from '../domain/contract';

/** Exact decimal sum of decimal strings, in units of 1e-12 (enough for the fakes' data). */
export function sumDecimals(values: readonly string[]): string {
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

/** The sum of the billed amounts (each rounded to 3 decimals) of charges of these amounts. */
export function billedSum(amounts: readonly string[]): string {
  return threeDecimals(sumDecimals(amounts.map(threeDecimals)));
}

/** The contract's class in the `type` filter (serverless = instance under an endpoint or workergroup). */
export function chargeCategory(contract: Contract): ChargeCategory {
  if (contract.kind === 'volume') return 'volume';
  return contract.endpointId !== null || contract.workergroupId !== null
    ? 'serverless'
    : 'instance';
}

/** The tree wrapper of a serverless contract: its endpoint when it has one, else its workergroup. */
export function groupKey(contract: Contract): string | null {
  if (chargeCategory(contract) !== 'serverless') return null;
  return contract.endpointId !== null
    ? `endpoint-${contract.endpointId}`
    : `workergroup-${contract.workergroupId}`;
}

export interface StoredContract {
  /** Order of the writes: what a walk's snapshot sees. */
  seq: number;
  contract: Contract;
  charges: DailyCharge[];
}

/**
 * Contracts and their daily charges in memory: what the billing fakes read. `add` replaces
 * a contract of the same id with its charges, as ContractRepository.replace does.
 */
export class InMemoryContracts {
  private readonly byId = new Map<number, StoredContract>();
  private seq = 0;

  add(contract: Contract, charges: DailyCharge[]): void {
    this.seq += 1;
    const known = this.byId.get(contract.id);
    this.byId.set(contract.id, { seq: known?.seq ?? this.seq, contract, charges });
  }

  /** The newest write: every contract stored so far has a seq at most this. */
  get lastSeq(): number {
    return this.seq;
  }

  all(): StoredContract[] {
    return [...this.byId.values()];
  }
}
