import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, ensureDatabaseExists, runMigrations } from '@app/platform';
import { temporaryDatabaseUrl, TEST_DATABASE_URL } from '@test/support/test-env';
import { PostgresDemoDataSeeder } from './postgres-demo-data.seeder';

const OPTIONS = { users: 6, contracts: 400, days: 9, lastDay: Date.UTC(2026, 0, 10) / 1000 };

/**
 * Everything a seed made, without the ids a database sequence hands out (a re-seed gets
 * new contract ids): contracts with their charges and totals, keyed by user and content,
 * and the per-user summaries, in one stable order.
 */
const SNAPSHOT = `
  SELECT json_build_object(
    'contracts', (
      SELECT json_agg(row ORDER BY row::text) FROM (
        SELECT u.email, c.kind, c.start_ts, c.end_ts, c.label, c.template_id, c.endpoint_id,
               c.workergroup_id, c.first_charge_day, c.last_charge_day,
               (SELECT json_agg(json_build_object('day', ch.day, 'type', ch.type,
                         'quantity', ch.quantity, 'unit', ch.unit, 'rate', ch.rate,
                         'amount', ch.amount) ORDER BY ch.day, ch.type)
                  FROM billing_charges ch WHERE ch.contract_id = c.id) AS charges,
               (SELECT json_agg(json_build_object('type', t.type, 'quantity', t.quantity,
                         'amount', t.amount, 'days', t.contract_days) ORDER BY t.type)
                  FROM billing_charge_totals t WHERE t.contract_id = c.id) AS totals
          FROM billing_contracts c JOIN users u ON u.id = c.user_id
         WHERE u.email LIKE '%@demo.gpumarket.test') row),
    'report_days', (
      SELECT json_agg(row ORDER BY row::text) FROM (
        SELECT u.email, r.category, r.bucket, r.day, r.starts, r.ends, r.min_start,
               r.max_start, r.min_end, r.max_end, r.amount
          FROM billing_report_days r JOIN users u ON u.id = r.owner_key) row),
    'statement_days', (
      SELECT json_agg(row ORDER BY row::text) FROM (
        SELECT u.email, s.dimension, s.day, s.category, s.key, s.lines, s.amount
          FROM billing_statement_days s JOIN users u ON u.id = s.owner_key) row)
  ) AS data`;

/**
 * `seed:demo` is repeatable: the same options give the same dataset, here seeded twice into
 * a database of its own (other tests seed the shared one).
 */
describe('PostgresDemoDataSeeder (real PostgreSQL)', () => {
  const database = temporaryDatabaseUrl('seed');
  let dataSource: DataSource;

  beforeAll(async () => {
    await ensureDatabaseExists(database.url);
    dataSource = await new DataSource(dataSourceOptions(database.url)).initialize();
    await runMigrations(dataSource);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database.name}"`);
    await admin.end();
  });

  async function snapshot(): Promise<unknown> {
    const [row] = (await dataSource.query(SNAPSHOT)) as Array<{ data: unknown }>;
    return row.data;
  }

  it('gives the same data for the same options, seed after seed', async () => {
    const seeder = new PostgresDemoDataSeeder(dataSource);
    const { seconds: _first, ...firstSummary } = await seeder.seed(OPTIONS);
    const first = await snapshot();
    const { seconds: _second, ...secondSummary } = await seeder.seed(OPTIONS);
    const second = await snapshot();

    expect(secondSummary).toEqual(firstSummary);
    expect(firstSummary).toMatchObject({ users: 6, contracts: 400 });
    expect((first as { contracts: unknown[] }).contracts).toHaveLength(400);
    expect(second).toEqual(first);
  });

  it('gives other data for other options', async () => {
    const seeder = new PostgresDemoDataSeeder(dataSource);
    await seeder.seed({ ...OPTIONS, lastDay: OPTIONS.lastDay + 86_400 });
    const shifted = await snapshot();
    await seeder.seed(OPTIONS);
    expect(await snapshot()).not.toEqual(shifted);
  });
});
