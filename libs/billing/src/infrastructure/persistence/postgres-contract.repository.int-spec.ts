import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { Contract, DailyCharge } from '../../domain/contract';
import { PostgresContractRepository } from './postgres-contract.repository';
import { ChargesWritten } from '../../application/charges-written.service';

/**
 * Concurrent writers of contracts (the fixtures loader's path, PostgresContractRepository)
 * against the summaries the report and the statement read: whatever the interleaving,
 * every write commits and both summaries equal a rebuild from the contracts and their
 * charges, for the user and for a team whose contracts the user writes (the summaries are
 * keyed by owner, docs/billing.md "Owners"). Contract ids 780000-780999 belong to this
 * file; its user and team (and with them the contracts and summary rows) are deleted at
 * the end.
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 7, 1) / 1000;
const day = (n: number) => D0 + n * DAY;
const FIRST_ID = 780_000;

describe('contract writes: summaries under concurrent writers', () => {
  let dataSource: DataSource;
  let tx: TransactionalEntityManager;
  let repository: PostgresContractRepository;
  let userId: number;
  let teamId: number;
  let nextId = FIRST_ID;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    tx = new TransactionalEntityManager(dataSource);
    const [user] = await tx.rows<{ id: number }>(
      `INSERT INTO users (email) VALUES ($1) RETURNING id`,
      [`billing-writes-${randomUUID()}@example.test`],
    );
    userId = user.id;
    const [team] = await tx.rows<{ id: number }>(
      `INSERT INTO teams (name) VALUES ('billing-writes') RETURNING id`,
    );
    teamId = team.id;
    repository = new PostgresContractRepository(tx, new ChargesWritten());
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [userId]);
    await dataSource.query(`DELETE FROM teams WHERE id = $1`, [teamId]);
    await dataSource.destroy();
  });

  /**
   * A serverless contract of endpoint `endpoint` charged on days first..last (gpu and disk),
   * the user's own, or the team's when `team` is set.
   */
  function contract(
    id: number,
    endpoint: number,
    first: number,
    last: number,
    rate = 100,
    team: number | null = null,
  ) {
    const value: Contract = {
      id,
      userId,
      teamId: team,
      kind: 'instance',
      start: day(first) + 3600,
      end: day(last) + 7200,
      label: `run-${endpoint}`,
      templateId: null,
      endpointId: endpoint,
      workergroupId: null,
    };
    const charges: DailyCharge[] = [];
    for (let n = first; n <= last; n += 1) {
      for (const type of ['gpu', 'disk'] as const) {
        charges.push({
          day: day(n),
          type,
          quantity: '2',
          unit: type === 'disk' ? 'GB-days' : 'hours',
          rate: `${rate}.000`,
          amount: `${2 * rate}.000`,
        });
      }
    }
    return { value, charges };
  }

  /** Both summaries of an owner, less their zero rows, against a rebuild from the base tables. */
  async function expectSummariesRebuilt(ownerKey = userId): Promise<void> {
    const reportDays = await tx.rows(
      `WITH rebuilt AS (
         SELECT c.category, coalesce(c.group_key, c.category) AS bucket, x.day,
                count(*) FILTER (WHERE x.day = c.first_charge_day)::int AS starts,
                count(*) FILTER (WHERE x.day = c.last_charge_day)::int AS ends,
                sum(x.amount) AS amount, sum(x.billed) AS billed
           FROM (SELECT contract_id, day, sum(amount) AS amount, sum(round(amount, 3)) AS billed
                   FROM billing_charges
                  GROUP BY contract_id, day) x
           JOIN billing_contracts c ON c.id = x.contract_id
          WHERE c.owner_key = $1
          GROUP BY 1, 2, 3),
       stored AS (
         SELECT category, bucket, day, starts, ends, amount, billed FROM billing_report_days
          WHERE owner_key = $1 AND (starts <> 0 OR ends <> 0 OR amount <> 0))
       (SELECT 'missing' AS side, * FROM rebuilt EXCEPT SELECT 'missing', * FROM stored)
       UNION ALL
       (SELECT 'extra', * FROM stored EXCEPT SELECT 'extra', * FROM rebuilt)`,
      [ownerKey],
    );
    expect(reportDays).toEqual([]);
    const statementDays = await tx.rows(
      `WITH keyed AS (
         SELECT c.category, g.dimension, g.key, ch.day, ch.amount
           FROM billing_contracts c JOIN billing_charges ch ON ch.contract_id = c.id
          CROSS JOIN LATERAL (VALUES ('type', c.category),
                ('endpoint', coalesce('endpoint-' || c.endpoint_id, '(none)')),
                ('workergroup', coalesce('workergroup-' || c.workergroup_id, '(none)')),
                ('label', coalesce(c.label, '(none)'))) g(dimension, key)
          WHERE c.owner_key = $1),
       rebuilt AS (
         SELECT dimension, day, category, key, count(*)::int AS lines, sum(amount) AS amount,
                sum(round(amount, 3)) AS billed
           FROM keyed GROUP BY 1, 2, 3, 4),
       stored AS (
         SELECT dimension, day, category, key, lines, amount, billed FROM billing_statement_days
          WHERE owner_key = $1 AND lines <> 0)
       (SELECT 'missing' AS side, * FROM rebuilt EXCEPT SELECT 'missing', * FROM stored)
       UNION ALL
       (SELECT 'extra', * FROM stored EXCEPT SELECT 'extra', * FROM rebuilt)`,
      [ownerKey],
    );
    expect(statementDays).toEqual([]);
  }

  async function writeAll(writes: Array<ReturnType<typeof contract>>) {
    const results = await Promise.allSettled(
      writes.map(({ value, charges }) => repository.replace(value, charges)),
    );
    return results.flatMap((result) =>
      result.status === 'rejected' ? [String((result.reason as Error).message)] : [],
    );
  }

  it('two first writes of one new contract into different buckets leave it counted once', async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = nextId++;
      // Different endpoints (buckets), different days: a lost serialisation shows as the
      // contract counted in both buckets, or charges of both writes kept.
      const failed = await writeAll([contract(id, 1, 0, 3), contract(id, 2, 5, 8, 300)]);
      expect({ round, failed }).toEqual({ round, failed: [] });
      const [row] = await tx.rows<{ endpoint_id: number; days: string[] }>(
        `SELECT c.endpoint_id, array_agg(DISTINCT ch.day::text) AS days
           FROM billing_contracts c JOIN billing_charges ch ON ch.contract_id = c.id
          WHERE c.id = $1 GROUP BY c.endpoint_id`,
        [id],
      );
      // The write that committed last wins, whole.
      expect(row.days).toHaveLength(4);
      expect(row.days).toEqual(
        (row.endpoint_id === 1 ? [0, 1, 2, 3] : [5, 6, 7, 8]).map((n) => String(day(n))),
      );
    }
    await expectSummariesRebuilt();
  });

  it('rewrites of one user’s contracts in shared statement rows, all at once, never deadlock', async () => {
    // Sixteen contracts over eight endpoints (buckets) of one category, moving between them
    // each round: writers of different buckets run at once, their charge days overlap, and
    // every writer removes and adds lines in statement rows the others change too.
    const ids = Array.from({ length: 16 }, () => nextId++);
    const shift = (round: number, i: number) => (round * 7 + i * 3) % 10;
    expect(
      await writeAll(ids.map((id, i) => contract(id, 1 + (i % 8), i % 5, (i % 5) + 4))),
    ).toEqual([]);
    for (let round = 1; round <= 12; round += 1) {
      const writes = ids.map((id, i) =>
        contract(
          id,
          1 + ((i + round) % 8),
          shift(round, i),
          shift(round, i) + 3 + (i % 4),
          100 + round,
        ),
      );
      expect({ round, failed: await writeAll(writes) }).toEqual({ round, failed: [] });
    }
    await expectSummariesRebuilt();
  });

  it('moves contracts between the user and a team under concurrent writers: each owner exact', async () => {
    // Eight contracts over four endpoints, each round half of them held by the team and
    // half by the user, alternating: every write leaves one owner's buckets and joins the
    // other's (the same endpoint under two owners is two buckets).
    const ids = Array.from({ length: 8 }, () => nextId++);
    const owner = (round: number, i: number) => ((round + i) % 2 === 0 ? teamId : null);
    for (let round = 0; round <= 6; round += 1) {
      const writes = ids.map((id, i) =>
        contract(
          id,
          1 + (i % 4),
          (round + i) % 5,
          ((round + i) % 5) + 2,
          200 + round,
          owner(round, i),
        ),
      );
      expect({ round, failed: await writeAll(writes) }).toEqual({ round, failed: [] });
    }
    await expectSummariesRebuilt(userId);
    await expectSummariesRebuilt(-teamId);
    const [held] = await tx.rows<{ team: number; own: number }>(
      `SELECT count(*) FILTER (WHERE owner_key = $2)::int AS team,
              count(*) FILTER (WHERE owner_key = $3)::int AS own
         FROM billing_contracts WHERE id = ANY($1)`,
      [ids, -teamId, userId],
    );
    expect(held).toEqual({ team: 4, own: 4 });
  });

  it("forgets an owner's summary rows when the owner goes, and keeps a team with contracts", async () => {
    const [other] = await tx.rows<{ id: number }>(
      `INSERT INTO users (email) VALUES ($1) RETURNING id`,
      [`billing-writes-${randomUUID()}@example.test`],
    );
    const [team] = await tx.rows<{ id: number }>(
      `INSERT INTO teams (name) VALUES ('billing-writes-gone') RETURNING id`,
    );
    const owned = async (key: number) =>
      (
        await tx.rows<{ n: number }>(
          `SELECT (SELECT count(*) FROM billing_report_days WHERE owner_key = $1)
                + (SELECT count(*) FROM billing_statement_days WHERE owner_key = $1) AS n`,
          [key],
        )
      )[0].n;
    const personal = contract(nextId++, 1, 0, 1);
    await repository.replace({ ...personal.value, userId: other.id }, personal.charges);
    const teams = contract(nextId++, 1, 0, 1, 100, team.id);
    await repository.replace(teams.value, teams.charges);
    expect(Number(await owned(other.id))).toBeGreaterThan(0);
    expect(Number(await owned(-team.id))).toBeGreaterThan(0);

    // A team's contract refers to it without cascading: the team stays while one remains.
    await expect(
      dataSource.query(`DELETE FROM teams WHERE id = $1`, [team.id]),
    ).rejects.toMatchObject({
      code: '23503',
    });
    await dataSource.query(`DELETE FROM billing_contracts WHERE id = $1`, [teams.value.id]);
    await dataSource.query(`DELETE FROM teams WHERE id = $1`, [team.id]);
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [other.id]);
    expect(Number(await owned(other.id))).toBe(0);
    expect(Number(await owned(-team.id))).toBe(0);
  });
});
