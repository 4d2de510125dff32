import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `billing_charge_totals`: per contract and charge type, the exact sums (quantity, amount),
 * bounds (first and last day, lowest and highest rate) and unit of all its charges, with
 * the contract's own first and last charged day and number of charged days on each row.
 * A report page reads the totals of the contracts whose charge days all lie in its range
 * (most of them for ranges of weeks: contracts last days) from here, one index probe each,
 * instead of summing their daily charges (docs/billing.md "Charge totals"); the others are
 * summed from billing_charges as before. Backfilled in one pass over the charges (about a
 * minute for the 11 M charges of the 1,000,000-contract dataset).
 */
export class BillingChargeTotals1767000100004 implements MigrationInterface {
  name = 'BillingChargeTotals1767000100004';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE billing_charge_totals (
        contract_id integer NOT NULL REFERENCES billing_contracts (id) ON DELETE CASCADE,
        type text NOT NULL,
        first_day bigint NOT NULL,
        last_day bigint NOT NULL,
        quantity numeric NOT NULL,
        unit text NOT NULL,
        min_rate numeric NOT NULL,
        max_rate numeric NOT NULL,
        amount numeric NOT NULL,
        contract_first_day bigint NOT NULL,
        contract_last_day bigint NOT NULL,
        contract_days integer NOT NULL,
        PRIMARY KEY (contract_id, type)
      )`);
    // One sorted pass: the aggregate spills less with more memory, until the RESET below.
    await runner.query(`SET work_mem = '256MB'`);
    await runner.query(`
      INSERT INTO billing_charge_totals
        (contract_id, type, first_day, last_day, quantity, unit, min_rate, max_rate, amount,
         contract_first_day, contract_last_day, contract_days)
      SELECT ch.contract_id, ch.type, min(ch.day), max(ch.day), sum(ch.quantity), min(ch.unit),
             min(ch.rate), max(ch.rate), sum(ch.amount),
             c.first_charge_day, c.last_charge_day,
             CASE WHEN c.charge_days_gapped
                  THEN (SELECT count(DISTINCT d.day) FROM billing_charges d WHERE d.contract_id = c.id)
                  ELSE (c.last_charge_day - c.first_charge_day) / 86400 + 1 END::int
        FROM billing_contracts c JOIN billing_charges ch ON ch.contract_id = c.id
       GROUP BY ch.contract_id, ch.type, c.id
       ORDER BY ch.contract_id, ch.type`);
    await runner.query(`RESET work_mem`);
    await runner.query(`ANALYZE billing_charge_totals`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE billing_charge_totals`);
  }
}
