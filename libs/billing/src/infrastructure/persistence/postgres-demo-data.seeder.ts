import { Injectable } from '@nestjs/common';
import { DataSource, QueryRunner } from 'typeorm';
import {
  DemoDataSeeder,
  DemoSeedOptions,
  DemoSeedSummary,
} from '../../application/ports/demo-data.seeder.port';
import { bulkChargeTotalsSql } from './charge-totals.sql';
import { bulkReportDaysSql } from './report-days.sql';
import { bulkStatementDaysSql } from './statement-days.sql';

/** Demo users are recognisable by this email domain; the seed replaces their contracts. */
export const DEMO_EMAIL_DOMAIN = 'demo.gpumarket.test';

/** Share of all contracts owned by user 1, the heavy user. */
const HEAVY_SHARE = 0.2;

/** Masks a 64-bit hash to a non-negative 31-bit value (abs() of the smallest one fails). */
const HASH_31_BITS = 2147483647;

/**
 * Everything is generated inside PostgreSQL with INSERT ... SELECT over generate_series
 * (no rows cross the wire, so it is as fast as COPY): 1,000,000 contracts and ~10,000,000
 * charges load in a few minutes. The same options produce the same dataset: the contracts
 * come from one seeded random sequence (setseed, consumed in a fixed order), and each
 * contract's charges from hashes of what the contract is (its user's number, kind, start
 * and end), never of its id: ids come from a sequence, so a re-seed gets new ones.
 */
@Injectable()
export class PostgresDemoDataSeeder extends DemoDataSeeder {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async seed(options: DemoSeedOptions): Promise<DemoSeedSummary> {
    const started = Date.now();
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(`SET synchronous_commit = off`);
      await runner.query(`SET work_mem = '256MB'`);
      await runner.query(`SET maintenance_work_mem = '512MB'`);
      await runner.startTransaction();
      const report = options.onProgress ?? (() => undefined);
      report('users', 0, options.users, 'users');
      await this.seedUsers(runner, options);
      report('users', options.users, options.users, 'users');
      report('clear previous demo data', 0, 1, 'steps');
      await this.clearContracts(runner);
      report('clear previous demo data', 1, 1, 'steps');
      // In slices, so a long load reports its progress (and the same options still give
      // the same dataset: one random sequence, consumed in the same order).
      const batch = Math.max(10_000, Math.ceil(options.contracts / 50));
      await runner.query(`SELECT setseed(0.4242)`);
      for (let first = 1; first <= options.contracts; first += batch) {
        report('contracts', first - 1, options.contracts, 'contracts');
        const last = Math.min(options.contracts, first + batch - 1);
        await this.seedContracts(runner, options, first, last);
      }
      report('contracts', options.contracts, options.contracts, 'contracts');
      const [ids] = (await runner.query(
        `SELECT coalesce(min(c.id), 0)::bigint AS first, coalesce(max(c.id), -1)::bigint AS last
           FROM billing_contracts c JOIN demo_users u ON u.id = c.user_id`,
      )) as Array<{ first: string; last: string }>;
      const [firstId, lastId] = [Number(ids.first), Number(ids.last)];
      const contractIds = lastId - firstId + 1;
      for (let from = firstId; from <= lastId; from += batch) {
        report('charges', from - firstId, contractIds, 'contracts');
        await this.seedCharges(runner, from, Math.min(lastId, from + batch - 1));
        await runner.query(
          bulkChargeTotalsSql(
            'c.id BETWEEN $1 AND $2 AND c.user_id IN (SELECT id FROM demo_users)',
          ),
          [from, Math.min(lastId, from + batch - 1)],
        );
      }
      report('charges', contractIds, contractIds, 'contracts');
      const userBatch = Math.max(100, Math.ceil(options.users / 50));
      for (let from = 1; from <= options.users; from += userBatch) {
        report('report days', from - 1, options.users, 'users');
        await this.seedReportDays(runner, from, Math.min(options.users, from + userBatch - 1));
      }
      report('report days', options.users, options.users, 'users');
      report('statement days', 0, 1, 'steps');
      await this.seedStatementDays(runner);
      report('statement days', 1, 1, 'steps');
      await runner.commitTransaction();
      // Statistics for the planner and an up-to-date visibility map for index-only scans.
      const maintained = [
        'billing_contracts',
        'billing_charges',
        'billing_report_days',
        'billing_statement_days',
        'users',
      ];
      for (const [index, table] of maintained.entries()) {
        report('vacuum analyze', index, maintained.length, 'tables');
        // The charge totals go with the charges they sum (one step of the progress).
        await runner.query(
          table === 'users'
            ? `ANALYZE users`
            : table === 'billing_charges'
              ? `VACUUM ANALYZE billing_charges, billing_charge_totals`
              : `VACUUM ANALYZE ${table}`,
        );
      }
      report('vacuum analyze', maintained.length, maintained.length, 'tables');
      const [counts] = (await runner.query(
        `SELECT (SELECT count(*) FROM demo_users)::int AS users,
                (SELECT count(*) FROM billing_contracts c JOIN demo_users u ON u.id = c.user_id)::int AS contracts,
                (SELECT count(*) FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id
                   JOIN demo_users u ON u.id = c.user_id)::int AS charges,
                (SELECT id FROM demo_users WHERE n = 1) AS heavy_user_id,
                (SELECT count(*) FROM billing_contracts c JOIN demo_users u ON u.id = c.user_id
                  WHERE u.n = 1)::int AS heavy_user_contracts`,
      )) as Array<Omit<DemoSeedSummary, 'first_day' | 'last_day' | 'seconds'>>;
      return {
        ...counts,
        first_day: firstDay(options),
        last_day: options.lastDay,
        seconds: Math.round((Date.now() - started) / 100) / 10,
      };
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Users are inserted directly with SQL (not through CreateUserUseCase): 10,000 argon2
   * hashes and API keys would take longer than the whole dataset and are not needed;
   * the benchmark makes its one API key with `manage apikey:create`.
   */
  private async seedUsers(runner: QueryRunner, options: DemoSeedOptions): Promise<void> {
    await runner.query(
      `INSERT INTO users (email, username, full_name, email_verified_at)
       SELECT 'demo-' || n || '@${DEMO_EMAIL_DOMAIN}', 'demo' || n, 'Demo user ' || n, now()
         FROM generate_series(1, $1::int) n
       ON CONFLICT DO NOTHING`,
      [options.users],
    );
    await runner.query(`DROP TABLE IF EXISTS demo_users`);
    await runner.query(
      `CREATE TEMP TABLE demo_users AS
       SELECT split_part(split_part(email, '@', 1), '-', 2)::int AS n, id
         FROM users
        WHERE email LIKE 'demo-%@${DEMO_EMAIL_DOMAIN}'
          AND split_part(split_part(email, '@', 1), '-', 2)::int <= $1`,
      [options.users],
    );
    await runner.query(`CREATE UNIQUE INDEX ON demo_users (n)`);
    await runner.query(`ANALYZE demo_users`);
  }

  private async clearContracts(runner: QueryRunner): Promise<void> {
    await runner.query(
      `DELETE FROM billing_report_days WHERE owner_key IN (SELECT id FROM demo_users)`,
    );
    await runner.query(
      `DELETE FROM billing_statement_days WHERE owner_key IN (SELECT id FROM demo_users)`,
    );
    await runner.query(
      `DELETE FROM billing_charge_totals WHERE contract_id IN
         (SELECT c.id FROM billing_contracts c JOIN demo_users u ON u.id = c.user_id)`,
    );
    await runner.query(
      `DELETE FROM billing_charges WHERE contract_id IN
         (SELECT c.id FROM billing_contracts c JOIN demo_users u ON u.id = c.user_id)`,
    );
    await runner.query(
      `DELETE FROM billing_contracts WHERE user_id IN (SELECT id FROM demo_users)`,
    );
  }

  /**
   * The mix: 20% of all contracts belong to the heavy user; the others are skewed towards
   * low user numbers (a few big customers, a long tail). 80% instances (mean ~3 days),
   * 20% volumes (mean ~8 days). Serverless: 35% of the heavy user's instances and 12% of
   * the others', 80% under an endpoint (24 endpoints for the heavy user, 3 otherwise),
   * 20% under a bare workergroup.
   */
  private async seedContracts(
    runner: QueryRunner,
    options: DemoSeedOptions,
    first: number,
    last: number,
  ): Promise<void> {
    await runner.query(
      `INSERT INTO billing_contracts
         (user_id, kind, start_ts, end_ts, label, template_id, endpoint_id, workergroup_id,
          first_charge_day, last_charge_day, charge_days_gapped)
       SELECT u.id, g.kind, g.start_ts, g.end_ts,
              CASE WHEN g.r_label < 0.3 THEN NULL ELSE (ARRAY['train', 'infer', 'dev', 'eval', 'batch'])[1 + floor(g.r_label * 5)::int % 5] END,
              CASE WHEN g.r_label < 0.5 THEN NULL ELSE 100 + floor(g.r_label * 40)::int END,
              CASE WHEN g.serverless AND g.r_group < 0.8 THEN g.endpoint END,
              CASE WHEN NOT g.serverless THEN NULL
                   WHEN g.r_group < 0.8 THEN g.endpoint * 10 + floor(g.r_group * 3)::int
                   ELSE 5000000 + g.user_n * 10 + floor(g.r_group * 4)::int END,
              g.start_day,
              least(g.end_ts - g.end_ts % 86400, $3::bigint),
              false
         FROM (
           SELECT s.*, s.start_day + s.offset_s AS start_ts,
                  s.start_day + s.offset_s + greatest(3600, (s.duration_days * 86400 - s.trim_s)) AS end_ts,
                  s.user_n * 100 + floor(s.r_endpoint * CASE WHEN s.user_n = 1 THEN 24 ELSE 3 END)::int AS endpoint
             FROM (
               SELECT n,
                      CASE WHEN random() < ${HEAVY_SHARE} THEN 1
                           ELSE 2 + floor(power(random(), 2) * ($1::int - 1))::int END AS user_n,
                      CASE WHEN random() < 0.8 THEN 'instance' ELSE 'volume' END AS kind,
                      $2::bigint + floor(random() * $4::int)::bigint * 86400 AS start_day,
                      floor(random() * 86400)::bigint AS offset_s,
                      floor(random() * 43200)::bigint AS trim_s,
                      random() AS r_dur, random() AS r_label, random() AS r_group,
                      random() AS r_endpoint, random() AS r_serverless
                 FROM generate_series($5::int, $6::int) n
             ) s0
             CROSS JOIN LATERAL (
               SELECT s0.*,
                      1 + floor(-ln(1 - s0.r_dur) * CASE WHEN s0.kind = 'instance' THEN 2.6 ELSE 8 END)::int AS duration_days,
                      s0.kind = 'instance'
                        AND s0.r_serverless < CASE WHEN s0.user_n = 1 THEN 0.35 ELSE 0.12 END AS serverless
             ) s
         ) g
         JOIN demo_users u ON u.n = least(g.user_n, $1::int)
        ORDER BY g.n`,
      [options.users, firstDay(options), options.lastDay, options.days, first, last],
    );
  }

  /**
   * Instances: gpu and disk every day, bwd on ~70% and bwu on ~45% of days; volumes: disk.
   * Quantities and rates derive from hashes of the contract's content `k` (and the day),
   * non-negative 31-bit values; amounts are exact products.
   */
  private async seedCharges(runner: QueryRunner, firstId: number, lastId: number): Promise<void> {
    await runner.query(
      `INSERT INTO billing_charges (contract_id, day, type, quantity, unit, rate, amount)
       SELECT x.id, x.day, x.type, x.quantity, x.unit, x.rate, x.quantity * x.rate
         FROM (
           SELECT c.id, d.day, t.type,
                  CASE t.type
                    WHEN 'gpu' THEN round((1 + h.v % 23000 / 1000.0)::numeric, 3)
                    WHEN 'disk' THEN (10 + (hashint8extended(ck.k, -1) & ${HASH_31_BITS}) % 490)::numeric
                    ELSE round((h.v % 50000 / 1000.0)::numeric, 3)
                  END AS quantity,
                  CASE t.type WHEN 'gpu' THEN 'hours' WHEN 'disk' THEN 'GB-days' ELSE 'GB' END AS unit,
                  CASE t.type
                    WHEN 'gpu' THEN round((0.1 + (hashint8extended(ck.k, -2) & ${HASH_31_BITS}) % 1900 / 1000.0)::numeric, 3)
                    WHEN 'disk' THEN CASE WHEN c.kind = 'volume' THEN 0.004 ELSE 0.005 END
                    WHEN 'bwd' THEN 0.01
                    ELSE 0.008
                  END::numeric AS rate,
                  h.v
             FROM billing_contracts c
             JOIN demo_users u ON u.id = c.user_id AND c.id BETWEEN $1 AND $2
             CROSS JOIN LATERAL (
               SELECT hashtextextended(concat_ws('/', u.n, c.kind, c.start_ts, c.end_ts), 0) AS k
             ) ck
             CROSS JOIN LATERAL generate_series(c.first_charge_day, c.last_charge_day, 86400) d(day)
             CROSS JOIN LATERAL (VALUES ('gpu'), ('disk'), ('bwd'), ('bwu')) t(type)
             CROSS JOIN LATERAL (SELECT hashint8extended(ck.k, d.day / 86400) & ${HASH_31_BITS} AS v) h
            WHERE CASE t.type
                    WHEN 'disk' THEN true
                    WHEN 'gpu' THEN c.kind = 'instance'
                    WHEN 'bwd' THEN c.kind = 'instance' AND h.v % 100 < 70
                    ELSE c.kind = 'instance' AND (h.v >> 8) % 100 < 45
                  END
         ) x`,
      [firstId, lastId],
    );
  }

  /** Report days are per user: disjoint slices of demo users never meet in one group. */
  private async seedReportDays(runner: QueryRunner, firstN: number, lastN: number): Promise<void> {
    await runner.query(
      bulkReportDaysSql('JOIN demo_users u ON u.id = c.user_id AND u.n BETWEEN $1 AND $2'),
      [firstN, lastN],
    );
  }

  private async seedStatementDays(runner: QueryRunner): Promise<void> {
    await runner.query(bulkStatementDaysSql('JOIN demo_users u ON u.id = c.user_id'));
  }
}

function firstDay(options: DemoSeedOptions): number {
  return options.lastDay - (options.days - 1) * 86400;
}
