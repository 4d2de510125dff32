import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public client's low-balance setting on the user (`vastai set user`: balance_threshold,
 * balance_threshold_enabled; docs/spend-guards.md "The low-balance setting"). Both have a
 * default, so adding them rewrites nothing.
 */
export class AccountsBalanceThreshold1767000003000 implements MigrationInterface {
  name = 'AccountsBalanceThreshold1767000003000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE users
        ADD COLUMN balance_threshold numeric(14, 2) NOT NULL DEFAULT 0
          CHECK (balance_threshold >= 0 AND balance_threshold <= 1000000000),
        ADD COLUMN balance_threshold_enabled boolean NOT NULL DEFAULT false`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE users DROP COLUMN balance_threshold, DROP COLUMN balance_threshold_enabled`,
    );
  }
}
