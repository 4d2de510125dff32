import { MigrationInterface, QueryRunner } from 'typeorm';
import { bulkStatementDaysSql } from '../persistence/statement-days.sql';

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
    await runner.query(bulkStatementDaysSql(''));
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE billing_statement_days`);
  }
}
