import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `billing_statement_days`: per user, statement dimension (`type`, `endpoint`,
 * `workergroup`, `label`), charged day, category and key (the contract's value in that
 * dimension), the number of charge lines and the exact sum of their amounts. The
 * statement (GET /api/v0/charges/summary/) sums it per period and key, so its cost is
 * O(days x keys) whatever the number of contracts; the export reads its line count.
 * billing_report_days cannot serve this: it has no labels, files a contract with both an
 * endpoint and a workergroup under its endpoint only, and keeps no line counts.
 * Backfilled from the charges (about a minute on 1,000,000 contracts).
 */
export class BillingStatementDays1767000100002 implements MigrationInterface {
  name = 'BillingStatementDays1767000100002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE billing_statement_days (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        dimension text NOT NULL CHECK (dimension IN ('type', 'endpoint', 'workergroup', 'label')),
        day bigint NOT NULL,
        category text NOT NULL CHECK (category IN ('instance', 'serverless', 'volume')),
        key text COLLATE "C" NOT NULL,
        lines integer NOT NULL,
        amount numeric NOT NULL,
        PRIMARY KEY (user_id, dimension, day, category, key)
      )`);
    // The backfill as it was when this migration was written (a migration never changes;
    // 1767000100005 adds the billed amounts).
    await runner.query(`
      INSERT INTO billing_statement_days (user_id, dimension, day, category, key, lines, amount)
      SELECT c.user_id, g.dimension, x.day, c.category, g.key, sum(x.lines), sum(x.amount)
        FROM (SELECT ch.contract_id, ch.day, count(*)::int AS lines, sum(ch.amount) AS amount
                FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id
               GROUP BY ch.contract_id, ch.day) x
        JOIN billing_contracts c ON c.id = x.contract_id
        CROSS JOIN LATERAL (VALUES
          ('type', c.category),
          ('endpoint', coalesce('endpoint-' || c.endpoint_id, '(none)')),
          ('workergroup', coalesce('workergroup-' || c.workergroup_id, '(none)')),
          ('label', coalesce(c.label, '(none)'))) g(dimension, key)
       GROUP BY 1, 2, 3, 4, 5`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE billing_statement_days`);
  }
}
