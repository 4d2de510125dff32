import { ChargeType, ContractKind } from './charge-report';

export interface Contract {
  id: number;
  /** Who made or holds it; in a team, the member. */
  userId: number;
  /** The team that owns it (made or held in the team's context), or null: its user's own. */
  teamId?: number | null;
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

/**
 * Who a charges question is about (docs/billing.md "Owners"): a team in its context, else
 * the user, whose contracts outside any team are theirs.
 */
export interface ChargeOwner {
  userId: number;
  teamId: number | null;
}

/**
 * The owner's key, as `owner_key` stores it beside every contract and summary row: the
 * user's id for a personal owner, the team's id negated for a team. Ids are positive, so
 * the two never meet, and a personal key is the user id the report keyed everything by
 * before teams owned contracts (its page tokens stay valid).
 */
export function chargeOwnerKey(owner: ChargeOwner): number {
  return owner.teamId === null ? owner.userId : -owner.teamId;
}

/** The key of the owner of `contract`. */
export function contractOwnerKey(contract: Contract): number {
  return chargeOwnerKey({ userId: contract.userId, teamId: contract.teamId ?? null });
}
