import { ChargeType, ContractKind } from './charge-report';

export interface Contract {
  id: number;
  userId: number;
  kind: ContractKind;
  /** Unix seconds, UTC. */
  start: number;
  end: number;
  label: string | null;
  templateId: number | null;
  endpointId: number | null;
  workergroupId: number | null;
}

/** One charge type of one contract on one UTC day. Decimals stay strings (exact). */
export interface DailyCharge {
  /** Unix seconds of 00:00 UTC. */
  day: number;
  type: ChargeType;
  quantity: string;
  unit: string;
  rate: string;
  amount: string;
}
