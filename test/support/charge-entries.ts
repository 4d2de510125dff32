/**
 * The entries GET /api/v0/charges/ answers (docs/billing.md "Semantics and decisions"), built
 * from what a test means, so an assertion reads as the entry it expects: a contract entry
 * with its items, a serverless wrapper, an item of a charge type.
 */

export interface ChargeEntryBody {
  start: number;
  end: number;
  type: string;
  source: string | null;
  description: string;
  amount: number;
  metadata: Record<string, unknown>;
  items: ChargeEntryBody[];
}

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** One charge type of a contract over its charged days in range: source null, no metadata. */
export function chargeItem(
  type: 'gpu' | 'disk' | 'bwd' | 'bwu',
  start: number,
  end: number,
  description: string,
  amount: number,
): ChargeEntryBody {
  return { start, end, type, source: null, description, amount, metadata: {}, items: [] };
}

/** A contract's entry: "Instance 11001 Charges - 4 days", over `days` charged days in range. */
export function contractEntry(entry: {
  kind: 'instance' | 'volume';
  id: number;
  start: number;
  end: number;
  days: number;
  amount: number;
  metadata?: Record<string, unknown>;
  items?: ChargeEntryBody[];
}): ChargeEntryBody {
  return {
    start: entry.start,
    end: entry.end,
    type: entry.kind,
    source: `${entry.kind}-${entry.id}`,
    description: `${capitalised(entry.kind)} ${entry.id} Charges - ${counted(entry.days, 'day')}`,
    amount: entry.amount,
    metadata: entry.metadata ?? {},
    items: entry.items ?? [],
  };
}

/** A serverless wrapper of the tree format: "Endpoint 501 Charges - 2 contracts", no items. */
export function wrapperEntry(entry: {
  group: 'endpoint' | 'workergroup';
  id: number;
  start: number;
  end: number;
  contracts: number;
  amount: number;
}): ChargeEntryBody {
  return {
    start: entry.start,
    end: entry.end,
    type: 'serverless',
    source: `${entry.group}-${entry.id}`,
    description: `${capitalised(entry.group)} ${entry.id} Charges - ${counted(entry.contracts, 'contract')}`,
    amount: entry.amount,
    metadata: { [`${entry.group}_id`]: entry.id },
    items: [],
  };
}
