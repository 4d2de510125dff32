/**
 * Which charges a spend question covers: one owner's (docs/billing.md "Owners"), charged
 * on UTC days from `fromDay` (included) to `toDay` (excluded), optionally only those of
 * contracts with this label, endpoint and workergroup (every one given must match).
 */
export interface BilledSpendQuery {
  ownerKey: number;
  /** Unix seconds of a UTC midnight. */
  fromDay: number;
  /** Unix seconds of a UTC midnight, after `fromDay`. */
  toDay: number;
  label?: string | null;
  endpointId?: number | null;
  workergroupId?: number | null;
}

export abstract class BilledSpendReader {
  /**
   * The sum of the billed amounts (each charge line rounded to 3 decimals: docs/billing.md
   * "Billed amounts") of the charges the query covers, as a decimal string with 3 decimals.
   */
  abstract billedBetween(query: BilledSpendQuery): Promise<string>;
}
