import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { PrimaryOnlyReads } from '@app/platform/testing';
import {
  CHARGE_CATEGORIES,
  ChargeCategory,
  ChargeFilter,
  ReportRow,
  sortKeyOf,
} from '../../domain/charge-report';
import { Contract, DailyCharge } from '../../domain/contract';
import { InMemoryChargeReportReader } from '../../testing/in-memory-charge-report.reader';
import {
  contractChargesStatement,
  headStatement,
  pageStatement,
} from '@bench/charges-reference.sql';
import { ChargeSqlRow, PageSqlRow, toContractTotals, toReportRow } from './charge-report.mapper';
import { PostgresChargeReportReader } from './postgres-charge-report.reader';
import { PostgresContractRepository } from './postgres-contract.repository';
import { ChargesWritten } from '../../application/charges-written.service';

/**
 * The running totals of billing_report_days (docs/billing.md "Prefix sums") against two
 * references, on random fixtures (seeded): the statements they replaced (the frozen copy
 * under bench/, which sum the summary's days) and the in-memory reader (the report's
 * semantics over plain arrays). Covers gapped contracts, contracts without charges,
 * contracts moved between buckets, both sort orders, both formats, type filters, unaligned
 * ranges, and writes between the pages of a walk. Contract ids 770000-770999 belong to this
 * file; its users (and with them their contracts and summary rows) are deleted at the end.
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 5, 1) / 1000;
const day = (n: number) => D0 + n * DAY;
const FIRST_ID = 770_000;
const DAYS = 30;

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(values: readonly T[]): T => values[int(0, values.length - 1)];
  return { next, int, pick };
}
type Random = ReturnType<typeof generator>;

/** Shape of a page row, as the client sees it: what both statement sets must agree on. */
const shape = (row: ReportRow) =>
  row.rowKind === 'wrapper'
    ? `${row.source} ${row.start}..${row.end} x${row.contracts}`
    : `${row.source} ${row.start}..${row.end}`;

// Random fixtures of a few hundred contracts, walked page by page with thousands of
// statements: minutes when other files keep both cores busy. The bound only catches a hang.
jest.setTimeout(300_000);

describe('charges report: running totals against the summed days and the in-memory reader', () => {
  let dataSource: DataSource;
  let tx: TransactionalEntityManager;
  let repository: PostgresContractRepository;
  let reader: PostgresChargeReportReader;
  let memory: InMemoryChargeReportReader;
  const users: number[] = [];
  let nextId = FIRST_ID;

  /** The frozen statements, read the same way the reader reads its own. */
  const reference = {
    async head(userId: number, filter: ChargeFilter) {
      const { text, values } = headStatement(userId, filter);
      const [row] = await tx.rows<{ snapshot: string; total: number }>(text, values);
      return row;
    },
    async page(
      userId: number,
      filter: ChargeFilter,
      snapshot: string,
      after: ReturnType<typeof sortKeyOf> | null,
      limit: number,
    ) {
      const { text, values } = pageStatement(userId, filter, snapshot, after, limit);
      return (await tx.rows<PageSqlRow>(text, values)).map(toReportRow);
    },
    async contractCharges(ids: number[], gte: number, lte: number) {
      const { text, values } = contractChargesStatement(ids, gte, lte);
      return toContractTotals(await tx.rows<ChargeSqlRow>(text, values));
    },
  };

  /** The charges of a page's contracts as the reader, the summed charges and the fake give them. */
  async function expectSameCharges(what: string, rows: ReportRow[], filter: ChargeFilter) {
    const ids = rows.flatMap((row) => (row.rowKind === 'contract' ? [row.id] : []));
    if (ids.length === 0) return;
    const sorted = (totals: Map<number, unknown>) => [...totals].sort(([a], [b]) => a - b);
    const charges = sorted(await reader.contractCharges(ids, filter.gte, filter.lte));
    expect({ what, charges }).toEqual({
      what,
      charges: sorted(await reference.contractCharges(ids, filter.gte, filter.lte)),
    });
    expect({ what, charges }).toEqual({
      what,
      charges: sorted(await memory.contractCharges(ids, filter.gte, filter.lte)),
    });
  }

  function randomContract(random: Random, userId: number, id: number): Contract {
    const kind = random.next() < 0.2 ? 'volume' : 'instance';
    const serverless = kind === 'instance' && random.next() < 0.5;
    const endpoint = serverless && random.next() < 0.7;
    const start = day(random.int(-3, DAYS)) + random.int(0, 23) * 3600;
    return {
      id,
      userId,
      kind,
      start,
      end: start + random.int(1, 8 * 24) * 3600,
      label: null,
      templateId: null,
      endpointId: endpoint ? random.int(1, 3) : null,
      workergroupId: serverless && !endpoint ? random.int(1, 2) : null,
    };
  }

  /**
   * Charges on a run of days, sometimes with holes, sometimes none at all; instances have
   * gpu and often disk lines, and a rate that sometimes changes from one day to the next.
   */
  function randomCharges(random: Random, contract: Contract): DailyCharge[] {
    if (random.next() < 0.08) return [];
    const first = Math.floor((contract.start - D0) / DAY);
    const last = Math.max(first, Math.floor((contract.end - D0) / DAY));
    const gapped = random.next() < 0.3;
    const types: Array<DailyCharge['type']> =
      contract.kind === 'volume' ? ['disk'] : random.next() < 0.6 ? ['gpu', 'disk'] : ['gpu'];
    const milli = (n: number) => `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`;
    let rate = random.int(1, 999);
    const charges: DailyCharge[] = [];
    for (let n = first; n <= last; n += 1) {
      if (gapped && n !== first && n !== last && random.next() < 0.6) continue;
      if (random.next() < 0.2) rate = random.int(1, 999);
      for (const type of types) {
        const quantity = random.int(1, 24);
        charges.push({
          day: day(n),
          type,
          quantity: String(quantity),
          unit: type === 'disk' ? 'GB-days' : 'hours',
          rate: milli(rate),
          amount: milli(quantity * rate),
        });
      }
    }
    return charges;
  }

  async function store(contract: Contract, charges: DailyCharge[]): Promise<void> {
    await repository.replace(contract, charges);
    memory.add(contract, charges);
  }

  function randomFilter(random: Random): ChargeFilter {
    const a = day(random.int(-4, DAYS + 2)) + (random.next() < 0.3 ? random.int(1, DAY - 1) : 0);
    const b = day(random.int(-4, DAYS + 2)) + (random.next() < 0.3 ? random.int(1, DAY - 1) : 0);
    const categories: ChargeCategory[] | null =
      random.next() < 0.5 ? null : CHARGE_CATEGORIES.filter(() => random.next() < 0.6).slice(0, 2);
    return {
      gte: Math.min(a, b),
      lte: Math.max(a, b),
      categories: categories && categories.length > 0 ? categories : null,
      format: random.pick(['table', 'tree'] as const),
      latestFirst: random.next() < 0.5,
    };
  }

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    tx = new TransactionalEntityManager(dataSource);
    for (let i = 0; i < 2; i += 1) {
      const [user] = await tx.rows<{ id: number }>(
        `INSERT INTO users (email) VALUES ($1) RETURNING id`,
        [`billing-prefix-${randomUUID()}@example.test`],
      );
      users.push(user.id);
    }
    repository = new PostgresContractRepository(tx, new ChargesWritten());
    reader = new PostgresChargeReportReader(new PrimaryOnlyReads(tx));
    memory = new InMemoryChargeReportReader();
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.destroy();
  });

  /** Every running total equals the sum of its bucket's days up to it. */
  async function expectRunningTotals(): Promise<void> {
    const wrong = await tx.rows<Record<string, unknown>>(
      `SELECT * FROM (
         SELECT owner_key, category, bucket, day, cum_starts, cum_ends,
                sum(starts) OVER b AS want_starts, sum(ends) OVER b AS want_ends
           FROM billing_report_days WHERE owner_key = ANY($1)
         WINDOW b AS (PARTITION BY owner_key, category, bucket ORDER BY day)) x
        WHERE cum_starts <> want_starts OR cum_ends <> want_ends`,
      [users],
    );
    expect(wrong).toEqual([]);
  }

  it('counts and walks as the summed days and the in-memory reader do', async () => {
    const random = generator(20261126);
    const [main, other] = users;
    for (let i = 0; i < 70; i += 1) {
      const owner = i % 7 === 6 ? other : main;
      const contract = randomContract(random, owner, nextId++);
      await store(contract, randomCharges(random, contract));
    }
    // Rewrites: new charges, a move to another bucket or user, or no charges left.
    for (let i = 0; i < 25; i += 1) {
      const id = random.int(FIRST_ID, nextId - 1);
      const contract = randomContract(random, random.next() < 0.1 ? other : main, id);
      await store(contract, randomCharges(random, contract));
    }
    await expectRunningTotals();

    for (let round = 0; round < 60; round += 1) {
      const filter = randomFilter(random);
      const userId = round % 10 === 9 ? other : main;
      const what = JSON.stringify({ round, userId, filter });
      const head = await reader.head(userId, filter);
      const referenceHead = await reference.head(userId, filter);
      const memoryHead = await memory.head(userId, filter);
      expect({ what, total: head.total }).toEqual({ what, total: referenceHead.total });
      expect({ what, total: head.total }).toEqual({ what, total: memoryHead.total });

      const limit = random.int(1, 12);
      const walked: string[] = [];
      const expected = (await memory.page(userId, filter, memoryHead.snapshot, null, 10_000)).map(
        shape,
      );
      let after: ReturnType<typeof sortKeyOf> | null = null;
      for (;;) {
        const rows = await reader.page(userId, filter, head.snapshot, after, limit + 1);
        const referenceRows = await reference.page(userId, filter, head.snapshot, after, limit + 1);
        expect({ what, after, rows: rows.map(shape) }).toEqual({
          what,
          after,
          rows: referenceRows.map(shape),
        });
        const page = rows.slice(0, limit);
        walked.push(...page.map(shape));
        await expectSameCharges(what, page, filter);
        if (rows.length <= limit) break;
        after = sortKeyOf(page[page.length - 1], filter.latestFirst);
      }
      expect({ what, walked }).toEqual({ what, walked: expected });
    }
  });

  it('pages as the summed days do while contracts are written between the pages', async () => {
    const random = generator(7);
    const [main] = users;
    for (let round = 0; round < 25; round += 1) {
      const filter = randomFilter(random);
      const what = JSON.stringify({ round, filter });
      const head = await reader.head(main, filter);
      expect({ what, total: head.total }).toEqual({
        what,
        total: (await reference.head(main, filter)).total,
      });
      const limit = random.int(2, 8);
      let after: ReturnType<typeof sortKeyOf> | null = null;
      for (let page = 0; page < 6; page += 1) {
        const rows = await reader.page(main, filter, head.snapshot, after, limit + 1);
        const referenceRows = await reference.page(main, filter, head.snapshot, after, limit + 1);
        expect({ what, page, rows: rows.map(shape) }).toEqual({
          what,
          page,
          rows: referenceRows.map(shape),
        });
        if (rows.length <= limit) break;
        after = sortKeyOf(rows[limit - 1], filter.latestFirst);
        // A new contract and a rewritten one, both possibly in the walk's range and buckets.
        const fresh = randomContract(random, main, nextId++);
        await store(fresh, randomCharges(random, fresh));
        const old = randomContract(random, main, random.int(FIRST_ID, nextId - 1));
        await store(old, randomCharges(random, old));
      }
    }
    await expectRunningTotals();
  });

  it('keeps the running totals exact under concurrent writers moving contracts between buckets', async () => {
    const random = generator(99);
    const [main] = users;
    const whole: ChargeFilter = {
      gte: day(-10),
      lte: day(DAYS + 10),
      categories: null,
      format: 'tree',
      latestFirst: true,
    };
    // Contracts to rewrite, whichever tests ran before.
    while (nextId < FIRST_ID + 20) {
      const contract = randomContract(random, main, nextId++);
      await store(contract, randomCharges(random, contract));
    }
    for (let round = 0; round < 4; round += 1) {
      // Rewrites of distinct existing contracts and new ones, each into one of three
      // buckets, so that writers leave and join the same buckets in opposite directions.
      const existing = new Set<number>();
      while (existing.size < 10) existing.add(random.int(FIRST_ID, nextId - 1));
      const ids = [...existing, ...Array.from({ length: 4 }, () => nextId++)];
      const writes = ids.map((id) => {
        const bucket = random.int(0, 2);
        const contract: Contract = {
          ...randomContract(random, main, id),
          kind: 'instance',
          endpointId: bucket === 0 ? null : bucket,
          workergroupId: null,
        };
        return { contract, charges: randomCharges(random, contract) };
      });
      const results = await Promise.allSettled(
        writes.map(({ contract, charges }) => store(contract, charges)),
      );
      expect({ round, failed: results.filter((result) => result.status === 'rejected') }).toEqual({
        round,
        failed: [],
      });
      await expectRunningTotals();
      expect((await reader.head(main, whole)).total).toBe(
        (await reference.head(main, whole)).total,
      );
      expect((await reader.head(main, whole)).total).toBe((await memory.head(main, whole)).total);
    }
  });
});
