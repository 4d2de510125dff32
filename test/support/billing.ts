import { DataSource } from 'typeorm';
import type { TestApi } from './api';
import { bulkReportDaysSql, bulkStatementDaysSql } from '@app/billing/testing';

export interface BulkCharges {
  userId: number;
  /** The first contract id; the contracts take the ids from it on. */
  firstId: number;
  contracts: number;
  /** Midnight (unix s) of the first charged day; each contract is charged 90 days from it. */
  firstDay: number;
  label: string;
}

/**
 * Many charge lines in one statement each, for streaming tests: `contracts` instance
 * contracts of one user, each charged gpu and disk on 90 days (180 lines a contract), and
 * the summaries the api reads beside the charges, rebuilt for that user.
 */
export async function seedBulkCharges(db: DataSource, bulk: BulkCharges): Promise<void> {
  await db.query(
    `INSERT INTO billing_contracts (id, user_id, kind, start_ts, end_ts, label,
                                    first_charge_day, last_charge_day)
     SELECT $2::int + n, $1, 'instance', $3::bigint + n, $3::bigint + 90 * 86400, $5,
            $3::bigint, $3::bigint + 89 * 86400
       FROM generate_series(0, $4::int - 1) n`,
    [bulk.userId, bulk.firstId, bulk.firstDay, bulk.contracts, bulk.label],
  );
  await db.query(
    `INSERT INTO billing_charges (contract_id, day, type, quantity, unit, rate, amount)
     SELECT c.id, c.first_charge_day + d * 86400, t.type, 1, 'hours', 0.5, 0.5
       FROM billing_contracts c, generate_series(0, 89) d, (VALUES ('gpu'), ('disk')) t(type)
      WHERE c.user_id = $1`,
    [bulk.userId],
  );
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
