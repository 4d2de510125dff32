import { DataSource } from 'typeorm';
import { Metrics } from '@app/platform';
import type { TestApi } from './api';
import { bulkChargeTotalsSql, bulkReportDaysSql, bulkStatementDaysSql } from '@app/billing/testing';

export interface BulkCharges {
  userId: number;
  /** The first contract id; the contracts take the ids from it on. */
  firstId: number;
  contracts: number;
  /** Midnight (unix s) of the first charged day. */
  firstDay: number;
  label: string | null;
  /** Days each contract is charged, from its first (default 90). */
  days?: number;
  /** Contract n's first day is `firstDay` + (n mod `spread`) days (default 1: all alike). */
  spread?: number;
  /** One line per charged day and type, of 0.5 (default gpu and disk). */
  types?: readonly string[];
  /**
   * Random UUIDs appended to each line's unit (default 0): lines that do not compress, for
   * tests of compressed streams that must outgrow the socket buffers.
   */
  noisyUnits?: number;
}

/**
 * Many charge lines in a few statements, for tests that need a large account: `contracts`
 * instance contracts of one user, each charged 0.5 a day for each type on `days` days,
 * and the summaries the api reads beside the charges (the report's days, the statement's
 * days, the charge totals), built by the same bulk statements as seed:demo for that user.
 * Loading thousands of contracts through fixtures writes each in its own transaction,
 * which takes minutes on a busy machine.
 */
export async function seedBulkCharges(db: DataSource, bulk: BulkCharges): Promise<void> {
  const days = bulk.days ?? 90;
  await db.query(
    `INSERT INTO billing_contracts (id, user_id, kind, start_ts, end_ts, label,
                                    first_charge_day, last_charge_day)
     SELECT $2::int + n, $1, 'instance', f.first + n, f.first + $6::int * 86400, $5,
            f.first, f.first + ($6::int - 1) * 86400
       FROM generate_series(0, $4::int - 1) n,
            LATERAL (SELECT $3::bigint + (n % $7::int) * 86400 AS first) f`,
    [bulk.userId, bulk.firstId, bulk.firstDay, bulk.contracts, bulk.label, days, bulk.spread ?? 1],
  );
  await db.query(
    `INSERT INTO billing_charges (contract_id, day, type, quantity, unit, rate, amount)
     SELECT c.id, c.first_charge_day + d * 86400, t.type, 1,
            'hours' || coalesce((SELECT string_agg(gen_random_uuid()::text, '')
                                   FROM generate_series(1, $4::int) WHERE d >= 0 AND t.type IS NOT NULL), ''),
            0.5, 0.5
       FROM billing_contracts c, generate_series(0, $2::int - 1) d, unnest($3::text[]) t(type)
      WHERE c.user_id = $1`,
    [bulk.userId, days, bulk.types ?? ['gpu', 'disk'], bulk.noisyUnits ?? 0],
  );
  await db.query(bulkChargeTotalsSql('c.user_id = $1'), [bulk.userId]);
  await db.query(bulkReportDaysSql('AND c.user_id = $1'), [bulk.userId]);
  await db.query(bulkStatementDaysSql('AND c.user_id = $1'), [bulk.userId]);
}

/** Removes a test file's contracts (ids in `ids`) and its users' summary rows. */
export async function cleanBilling(
  db: DataSource,
  ids: readonly [number, number],
  users: readonly number[],
): Promise<void> {
  await db.query(`DELETE FROM billing_contracts WHERE id BETWEEN $1 AND $2`, [...ids]);
  if (users.length === 0) return;
  await db.query(`DELETE FROM billing_report_days WHERE owner_key = ANY($1)`, [users]);
  await db.query(`DELETE FROM billing_statement_days WHERE owner_key = ANY($1)`, [users]);
}

/** GET /api/v0/charges/export/?`query`, the body read whole as text. */
export function exportAsText(api: TestApi, auth: Record<string, string>, query: string) {
  return api
    .http()
    .get(`/api/v0/charges/export/?${query}`)
    .set(auth)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
}

/** charges_export_cuts_total{reason} of an api, from its metrics registry. */
export async function exportCuts(api: TestApi, reason: string): Promise<number> {
  const metrics = api.app.get(Metrics) as unknown as {
    registry: { getSingleMetric(name: string): { get(): Promise<{ values: unknown[] }> } };
  };
  const counter = await metrics.registry.getSingleMetric('charges_export_cuts_total').get();
  const values = counter.values as { labels: { reason?: string }; value: number }[];
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}
