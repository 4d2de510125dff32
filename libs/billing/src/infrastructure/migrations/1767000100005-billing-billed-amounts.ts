import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billed amounts: every charge line is billed at its amount rounded half away from zero to
 * 3 decimals (`round(amount, 3)`), and every figure of the report, the statement and the
 * export is a sum of billed amounts, so they foot (docs/billing.md "Billed amounts"). The
 * three summaries keep that sum beside their exact `amount` in a `billed` column,
 * backfilled from the charges here: one pass over the charges per summary.
 */
export class BillingBilledAmounts1767000100005 implements MigrationInterface {
  name = 'BillingBilledAmounts1767000100005';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of [
      'billing_statement_days',
      'billing_report_days',
      'billing_charge_totals',
    ]) {
      await runner.query(`ALTER TABLE ${table} ADD COLUMN billed numeric NOT NULL DEFAULT 0`);
    }
    await runner.query(`SET work_mem = '256MB'`);
    await runner.query(`
      UPDATE billing_charge_totals t SET billed = s.billed
        FROM (SELECT contract_id, type, sum(round(amount, 3)) AS billed
                FROM billing_charges GROUP BY contract_id, type) s
       WHERE t.contract_id = s.contract_id AND t.type = s.type`);
    await runner.query(`
      UPDATE billing_report_days r SET billed = s.billed
        FROM (SELECT c.user_id, c.category, coalesce(c.group_key, c.category) AS bucket, ch.day,
                     sum(round(ch.amount, 3)) AS billed
                FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id
               GROUP BY 1, 2, 3, 4) s
       WHERE r.user_id = s.user_id AND r.category = s.category AND r.bucket = s.bucket
         AND r.day = s.day`);
    await runner.query(`
      UPDATE billing_statement_days d SET billed = s.billed
        FROM (SELECT c.user_id, g.dimension, ch.day, c.category, g.key,
                     sum(round(ch.amount, 3)) AS billed
                FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id
               CROSS JOIN LATERAL (VALUES
                 ('type', c.category),
                 ('endpoint', coalesce('endpoint-' || c.endpoint_id, '(none)')),
                 ('workergroup', coalesce('workergroup-' || c.workergroup_id, '(none)')),
                 ('label', coalesce(c.label, '(none)'))) g(dimension, key)
               GROUP BY 1, 2, 3, 4, 5) s
       WHERE d.user_id = s.user_id AND d.dimension = s.dimension AND d.day = s.day
         AND d.category = s.category AND d.key = s.key`);
    await runner.query(`RESET work_mem`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'billing_statement_days',
      'billing_report_days',
      'billing_charge_totals',
    ]) {
      await runner.query(`ALTER TABLE ${table} DROP COLUMN billed`);
    }
  }
}
