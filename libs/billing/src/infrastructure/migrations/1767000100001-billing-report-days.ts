import { MigrationInterface, QueryRunner } from 'typeorm';

const WALK_INCLUDE = `id, first_charge_day, last_charge_day, category, created_xid, charge_days_gapped`;

/**
 * Makes every page of the charges report cost O(limit) plus O(days) (docs/billing.md):
 *
 *  - `created_xid` (the inserting transaction) replaces `seq`: a walk keeps the
 *    PostgreSQL snapshot of its first page and sees exactly the contracts committed in it.
 *    A sequence value is taken before its transaction commits, so a `seq <= snapshot`
 *    bound could let a contract that committed after page 1 appear in the middle of a walk
 *    and move a tree wrapper (skipping or repeating it).
 *  - `billing_report_days` summarises, per user, bucket (`instance`, `volume`, or the
 *    serverless wrapper `endpoint-<id>` / `workergroup-<id>`) and charged day: how many
 *    contracts have their first / last charged day there (so a total is a sum over days,
 *    not a count over contracts), the bounds of the start and end of the contracts charged
 *    that day (so a keyset scan starts and stops where matching contracts can be), and the
 *    exact sum of the charges (a wrapper's amount). It replaces billing_serverless_daily.
 *  - Indexes for the two walk orders (now carrying created_xid), per-wrapper probes, a
 *    user's newest contract, and the rare contracts whose charge days have holes.
 *
 * Existing rows get created_xid 0, which every snapshot sees; the summary is backfilled.
 */
export class BillingReportDays1767000100001 implements MigrationInterface {
  name = 'BillingReportDays1767000100001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE billing_contracts ADD COLUMN created_xid xid8 NOT NULL DEFAULT '0'`,
    );
    await runner.query(
      `ALTER TABLE billing_contracts ALTER COLUMN created_xid SET DEFAULT pg_current_xact_id()`,
    );
    await runner.query(`DROP INDEX billing_contracts_user_end_idx`);
    await runner.query(`DROP INDEX billing_contracts_user_start_idx`);
    await runner.query(`DROP INDEX billing_contracts_user_charged_idx`);
    await runner.query(`ALTER TABLE billing_contracts DROP COLUMN seq`);
    await runner.query(`DROP SEQUENCE billing_contract_seq`);

    await runner.query(`
      CREATE INDEX billing_contracts_walk_end_idx
        ON billing_contracts (user_id, end_ts DESC, source) INCLUDE (${WALK_INCLUDE})`);
    await runner.query(`
      CREATE INDEX billing_contracts_walk_start_idx
        ON billing_contracts (user_id, start_ts, source) INCLUDE (${WALK_INCLUDE})`);
    await runner.query(`
      CREATE INDEX billing_contracts_group_end_idx
        ON billing_contracts (user_id, group_key, end_ts DESC) INCLUDE (${WALK_INCLUDE})
        WHERE group_key IS NOT NULL`);
    await runner.query(`
      CREATE INDEX billing_contracts_group_start_idx
        ON billing_contracts (user_id, group_key, start_ts) INCLUDE (${WALK_INCLUDE})
        WHERE group_key IS NOT NULL`);
    // The newest contract of a user, which bounds a walk's snapshot.
    await runner.query(
      `CREATE INDEX billing_contracts_user_xid_idx ON billing_contracts (user_id, created_xid)`,
    );
    await runner.query(`
      CREATE INDEX billing_contracts_gapped_idx
        ON billing_contracts (user_id) INCLUDE (${WALK_INCLUDE}, group_key)
        WHERE charge_days_gapped`);

    await runner.query(`
      CREATE TABLE billing_report_days (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        category text NOT NULL CHECK (category IN ('instance', 'serverless', 'volume')),
        bucket text COLLATE "C" NOT NULL,
        day bigint NOT NULL,
        starts integer NOT NULL,
        ends integer NOT NULL,
        min_start bigint NOT NULL,
        max_start bigint NOT NULL,
        min_end bigint NOT NULL,
        max_end bigint NOT NULL,
        amount numeric NOT NULL,
        PRIMARY KEY (user_id, category, bucket, day)
      )`);
    await runner.query(`
      CREATE INDEX billing_report_days_range_idx
        ON billing_report_days (user_id, day) INCLUDE (category, min_start, max_start, min_end, max_end)`);
    await runner.query(`
      INSERT INTO billing_report_days
        (user_id, category, bucket, day, starts, ends, min_start, max_start, min_end, max_end, amount)
      SELECT c.user_id, c.category, coalesce(c.group_key, c.category), d.day,
             count(*) FILTER (WHERE d.day = c.first_charge_day),
             count(*) FILTER (WHERE d.day = c.last_charge_day),
             min(c.start_ts), max(c.start_ts), min(c.end_ts), max(c.end_ts), sum(d.amount)
        FROM (SELECT contract_id, day, sum(amount) AS amount
                FROM billing_charges GROUP BY contract_id, day) d
        JOIN billing_contracts c ON c.id = d.contract_id
       GROUP BY 1, 2, 3, 4`);
    await runner.query(`DROP TABLE billing_serverless_daily`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE billing_serverless_daily (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        group_key text COLLATE "C" NOT NULL,
        day bigint NOT NULL,
        amount numeric NOT NULL,
        PRIMARY KEY (user_id, group_key, day)
      )`);
    await runner.query(`
      INSERT INTO billing_serverless_daily (user_id, group_key, day, amount)
      SELECT user_id, bucket, day, amount FROM billing_report_days WHERE category = 'serverless'`);
    await runner.query(`DROP TABLE billing_report_days`);
    await runner.query(`DROP INDEX billing_contracts_walk_end_idx`);
    await runner.query(`DROP INDEX billing_contracts_walk_start_idx`);
    await runner.query(`DROP INDEX billing_contracts_group_end_idx`);
    await runner.query(`DROP INDEX billing_contracts_group_start_idx`);
    await runner.query(`DROP INDEX billing_contracts_gapped_idx`);
    await runner.query(`DROP INDEX billing_contracts_user_xid_idx`);
    await runner.query(`CREATE SEQUENCE billing_contract_seq`);
    await runner.query(
      `ALTER TABLE billing_contracts ADD COLUMN seq bigint NOT NULL DEFAULT nextval('billing_contract_seq')`,
    );
    await runner.query(`ALTER TABLE billing_contracts DROP COLUMN created_xid`);
    await runner.query(`
      CREATE INDEX billing_contracts_user_end_idx
        ON billing_contracts (user_id, end_ts DESC, source)
        INCLUDE (id, first_charge_day, last_charge_day, category, seq, charge_days_gapped)`);
    await runner.query(`
      CREATE INDEX billing_contracts_user_start_idx
        ON billing_contracts (user_id, start_ts, source)
        INCLUDE (id, first_charge_day, last_charge_day, category, seq, charge_days_gapped)`);
    await runner.query(`
      CREATE INDEX billing_contracts_user_charged_idx
        ON billing_contracts (user_id, last_charge_day)
        INCLUDE (id, first_charge_day, category, seq, charge_days_gapped, group_key, start_ts, end_ts)`);
  }
}
