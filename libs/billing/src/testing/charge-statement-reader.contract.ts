import { ChargeStatementReader } from '../application/ports/charge-statement.reader.port';
import { NO_KEY, StatementQuery, StatementSum } from '../domain/charge-statement';
import { chargeOwnerKey, Contract, DailyCharge } from '../domain/contract';
import { StoredContracts, testCharge, testContract } from './billing-builders';

/** What the contract runs against: a reader, over contracts it stores. */
export interface ChargeStatementReaderSubject extends StoredContracts {
  reader: ChargeStatementReader;
}

const DAY = 86_400;
/** 2026-03-01, a Sunday: the range [D - 2 days, D + 2 days] meets two months and two weeks. */
const D = Date.UTC(2026, 2, 1) / 1000;
const FEB = Date.UTC(2026, 1, 1) / 1000;
const MONDAY_BEFORE = D - 6 * DAY;
const MONDAY_AFTER = D + DAY;

const sum = (bucket: number | null, key: string | null, amount: string): StatementSum => ({
  bucket,
  key,
  amount,
});

/** Sums in one order (the port promises none): by bucket, then key, totals last. */
function sorted(sums: StatementSum[]): StatementSum[] {
  const rank = (value: number | string | null) => (value === null ? '\uffff' : String(value));
  const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...sums].sort(
    (a, b) => bytes(rank(a.bucket), rank(b.bucket)) || bytes(rank(a.key), rank(b.key)),
  );
}

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL
 * (docs/architecture.md "Where do tests go?"): the statement's sums per calendar period
 * (UTC, weeks from Monday) and key, per period and over the range, each a sum of billed
 * amounts (docs/billing.md "Billed amounts"), for every grouping, with the
 * type filter, unaligned range bounds and a rewritten contract.
 */
export function chargeStatementReaderContract(
  setup: () => Promise<ChargeStatementReaderSubject>,
): void {
  let subject: ChargeStatementReaderSubject;
  const contract = (n: number, fields: Partial<Contract> = {}) =>
    testContract(subject.firstId + n, {
      userId: subject.main,
      start: D - 5 * DAY,
      end: D + 5 * DAY,
      ...fields,
    });
  const gpu = (day: number, amount: string) => testCharge(day, 'gpu', '1', amount, amount);
  const disk = (day: number, amount: string) => testCharge(day, 'disk', '1', amount, amount);

  const query = (fields: Partial<StatementQuery> = {}): StatementQuery => ({
    gte: D - 2 * DAY,
    lte: D + 2 * DAY,
    categories: null,
    period: 'month',
    groupBy: 'type',
    ...fields,
  });
  const sums = async (fields: Partial<StatementQuery> = {}, userId = subject.main) =>
    sorted(await subject.reader.sums(userId, query(fields)));

  beforeAll(async () => {
    subject = await setup();
    const fixture: Array<[Contract, DailyCharge[]]> = [
      [
        contract(1, { label: 'train' }),
        [gpu(D - 2 * DAY, '1.5'), gpu(D - DAY, '2.25'), disk(D, '0.5'), gpu(D + 3 * DAY, '7')],
      ],
      [
        contract(2, { kind: 'volume' }),
        [disk(D - DAY, '0.25'), disk(D, '0.2'), disk(D + 2 * DAY, '0.2')],
      ],
      [contract(3, { endpointId: 501, workergroupId: 601 }), [gpu(D, '0.0004')]],
      [contract(4, { endpointId: 501 }), [gpu(D + DAY, '0.0004')]],
      [contract(5, { workergroupId: 701, label: 'wg' }), [gpu(D + DAY, '2')]],
      [contract(6, { userId: subject.other }), [gpu(D, '100')]],
      [contract(7), [gpu(D - 3 * DAY, '5')]],
      // The team's, made by main: in none of main's own sums.
      [contract(9, { teamId: subject.team, label: 'train' }), [gpu(D, '40'), disk(D + DAY, '1')]],
    ];
    for (const [stored, charges] of fixture) await subject.store(stored, charges);
  });

  it('sums billed amounts per month and type class, per month and over the range', async () => {
    expect(await sums()).toEqual([
      sum(FEB, 'instance', '3.750'),
      sum(FEB, 'volume', '0.250'),
      sum(FEB, null, '4.000'),
      sum(D, 'instance', '0.500'),
      sum(D, 'serverless', '2.000'),
      sum(D, 'volume', '0.400'),
      sum(D, null, '2.900'),
      sum(null, null, '6.900'),
    ]);
  });

  it('keys by endpoint per ISO week (from Monday), the contracts without one under (none)', async () => {
    expect(await sums({ groupBy: 'endpoint', period: 'week' })).toEqual([
      sum(MONDAY_BEFORE, NO_KEY, '4.700'),
      sum(MONDAY_BEFORE, 'endpoint-501', '0.000'),
      sum(MONDAY_BEFORE, null, '4.700'),
      sum(MONDAY_AFTER, NO_KEY, '2.200'),
      sum(MONDAY_AFTER, 'endpoint-501', '0.000'),
      sum(MONDAY_AFTER, null, '2.200'),
      // Sums of billed amounts: the two lines of 0.0004 are billed 0.000 each, so the weeks
      // add up to the range (the exact sum rounded once would be 6.901).
      sum(null, null, '6.900'),
    ]);
  });

  it('keys by workergroup per day, within the type filter', async () => {
    expect(
      await sums({ groupBy: 'workergroup', period: 'day', categories: ['serverless'] }),
    ).toEqual([
      sum(D, 'workergroup-601', '0.000'),
      sum(D, null, '0.000'),
      sum(D + DAY, NO_KEY, '0.000'),
      sum(D + DAY, 'workergroup-701', '2.000'),
      sum(D + DAY, null, '2.000'),
      sum(null, null, '2.000'),
    ]);
  });

  it('keys by two dimensions when one is type: (endpoint, class) pairs', async () => {
    const pairs = (
      await subject.reader.sums(subject.main, query({ groupBy: 'endpoint', thenBy: 'type' }))
    )
      .map((s) => [s.bucket, s.key, s.subkey ?? null, s.amount])
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    expect(pairs).toEqual(
      [
        [FEB, NO_KEY, 'instance', '3.750'],
        [FEB, NO_KEY, 'volume', '0.250'],
        [FEB, null, null, '4.000'],
        [D, NO_KEY, 'instance', '0.500'],
        [D, NO_KEY, 'serverless', '2.000'],
        [D, NO_KEY, 'volume', '0.400'],
        [D, 'endpoint-501', 'serverless', '0.000'],
        [D, null, null, '2.900'],
        [null, null, null, '6.900'],
      ].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    );
    const flipped = await subject.reader.sums(
      subject.main,
      query({ groupBy: 'type', thenBy: 'endpoint' }),
    );
    expect(flipped).toContainEqual({
      bucket: D,
      key: 'serverless',
      subkey: 'endpoint-501',
      amount: '0.000',
    });
  });

  it('keys by label', async () => {
    expect(await sums({ groupBy: 'label' })).toEqual([
      sum(FEB, NO_KEY, '0.250'),
      sum(FEB, 'train', '3.750'),
      sum(FEB, null, '4.000'),
      sum(D, NO_KEY, '0.400'),
      sum(D, 'train', '0.500'),
      sum(D, 'wg', '2.000'),
      sum(D, null, '2.900'),
      sum(null, null, '6.900'),
    ]);
  });

  it('counts the charged days inside unaligned bounds only', async () => {
    const total = (await sums({ gte: D - 2 * DAY + 1, lte: D + 2 * DAY - 1 })).at(-1);
    expect(total).toEqual(sum(null, null, '5.200'));
  });

  it("sums only the caller's charges, and answers a range without any as one zero total", async () => {
    expect(await sums({}, subject.other)).toEqual([
      sum(D, 'instance', '100.000'),
      sum(D, null, '100.000'),
      sum(null, null, '100.000'),
    ]);
    expect(await sums({ gte: D + 30 * DAY, lte: D + 31 * DAY })).toEqual([sum(null, null, '0')]);
  });

  it('forgets the keys a rewritten contract no longer has', async () => {
    const rewritten = contract(8, { userId: subject.other, label: 'before' });
    await subject.store(rewritten, [gpu(D, '1')]);
    await subject.store({ ...rewritten, label: 'after' }, [gpu(D + DAY, '2')]);
    expect(await sums({ groupBy: 'label' }, subject.other)).toEqual([
      sum(D, NO_KEY, '100.000'),
      sum(D, 'after', '2.000'),
      sum(D, null, '102.000'),
      sum(null, null, '102.000'),
    ]);
  });

  it("sums a team's contracts under the team's key only", async () => {
    const team = chargeOwnerKey({ userId: subject.main, teamId: subject.team });
    expect(await sums({ groupBy: 'label' }, team)).toEqual([
      sum(D, 'train', '41.000'),
      sum(D, null, '41.000'),
      sum(null, null, '41.000'),
    ]);
    expect(await sums({}, team - 1)).toEqual([sum(null, null, '0')]);
  });
}
