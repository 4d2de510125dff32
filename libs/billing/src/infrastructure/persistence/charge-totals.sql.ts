/**
 * Maintenance of billing_charge_totals (see the 1767000100004 migration): per contract and
 * charge type, the exact sums and bounds of all its charges, and per contract (repeated on
 * each of its rows) its first and last charged day and number of charged days. A report
 * page whose range holds all of a contract's charge days reads its totals from here
 * (contractChargesStatement) instead of summing its daily charges.
 */
const COLUMNS = `contract_id, type, first_day, last_day, quantity, unit, min_rate, max_rate, amount,
                 billed, contract_first_day, contract_last_day, contract_days`;

/**
 * The totals of the contracts `c` selected by `where`, from their charges and their
 * charge-day summary (first_charge_day, last_charge_day, charge_days_gapped, which must be
 * current): the number of charged days is the span unless the days have holes.
 */
function totalsSelect(where: string): string {
  return `
    SELECT ch.contract_id, ch.type, min(ch.day), max(ch.day), sum(ch.quantity), min(ch.unit),
           min(ch.rate), max(ch.rate), sum(ch.amount),
           sum(round(ch.amount, 3)), c.first_charge_day, c.last_charge_day,
           CASE WHEN c.charge_days_gapped
                THEN (SELECT count(DISTINCT d.day) FROM billing_charges d WHERE d.contract_id = c.id)
                ELSE (c.last_charge_day - c.first_charge_day) / 86400 + 1 END::int
      FROM billing_contracts c JOIN billing_charges ch ON ch.contract_id = c.id
     WHERE ${where}
     GROUP BY ch.contract_id, ch.type, c.id`;
}

/** Replaces contract $1's totals; run after its charges and charge-day summary are written. */
export const contractChargeTotalsSql = [
  `DELETE FROM billing_charge_totals WHERE contract_id = $1`,
  `INSERT INTO billing_charge_totals (${COLUMNS}) ${totalsSelect('c.id = $1')}`,
] as const;

/** Builds the totals in bulk for the contracts `c` selected by `where` (seed:demo). */
export function bulkChargeTotalsSql(where: string): string {
  return `INSERT INTO billing_charge_totals (${COLUMNS}) ${totalsSelect(where)}`;
}
