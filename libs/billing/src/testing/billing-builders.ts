import { ChargeType } from '../domain/charge-report';
import { Contract, DailyCharge } from '../domain/contract';

const UNITS: Record<ChargeType, string> = {
  gpu: 'hours',
  disk: 'GB-days',
  bwd: 'GB',
  bwu: 'GB',
};

/** What a billing contract suite stores its fixture through, and whose contracts it reads. */
export interface StoredContracts {
  /** Creates or replaces a contract with its charges (ContractRepository.replace). */
  store(contract: Contract, charges: DailyCharge[]): Promise<void>;
  /** The owner of the fixture's contracts, and another user. */
  main: number;
  other: number;
  /** A team `main` is a member of: its contracts are the team's (docs/billing.md "Owners"). */
  team: number;
  /** Contract ids from firstId + 1 to firstId + 20 belong to the suite. */
  firstId: number;
}

/** A contract of user 1 over its first day, none of its optional keys set, unless `fields` say otherwise. */
export function testContract(id: number, fields: Partial<Contract> = {}): Contract {
  return {
    id,
    userId: 1,
    kind: 'instance',
    start: 0,
    end: 86_400,
    label: null,
    templateId: null,
    endpointId: null,
    workergroupId: null,
    ...fields,
  };
}

/** One day's charge of one type, in the unit of its type; decimals as exact strings. */
export function testCharge(
  day: number,
  type: ChargeType,
  quantity: string,
  rate: string,
  amount: string,
): DailyCharge {
  return { day, type, quantity, unit: UNITS[type], rate, amount };
}
