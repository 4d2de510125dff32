import { ChargeReportReader } from '../application/ports/charge-report.reader.port';
import { ChargeFilter, ReportRow, sortKeyOf } from '../domain/charge-report';
import { chargeOwnerKey, Contract, DailyCharge } from '../domain/contract';
import { StoredContracts, testCharge, testContract } from './billing-builders';

/** What the contract runs against: a reader, over contracts it stores. */
export interface ChargeReportReaderSubject extends StoredContracts {
  reader: ChargeReportReader;
}

const DAY = 86_400;
/** 2026-03-01, the middle of the range. */
const D = Date.UTC(2026, 2, 1) / 1000;
const RANGE = { gte: D - DAY, lte: D + DAY };

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL, so
 * the fake the use-case tests rely on answers as the real reader does (docs/architecture.md
 * "Where do tests go?"). The fixture is one range [D - 1 day, D + 1 day] over contracts
 * chosen for the rules of docs/billing.md: membership by charge day (with a contract whose
 * charge days have a hole over the range), ties by source, wrappers of serverless
 * contracts, sums of billed amounts, and a rate that changed within the range.
 */
export function chargeReportReaderContract(setup: () => Promise<ChargeReportReaderSubject>): void {
  let subject: ChargeReportReaderSubject;
  const id = (n: number) => subject.firstId + n;
  const source = (kind: 'instance' | 'volume', n: number) => `${kind}-${id(n)}`;

  const contract = (n: number, fields: Partial<Contract>): Contract =>
    testContract(id(n), { userId: subject.main, start: D, end: D + DAY, ...fields });

  const filter = (overrides: Partial<ChargeFilter> = {}): ChargeFilter => ({
    ...RANGE,
    categories: null,
    format: 'table',
    latestFirst: true,
    ...overrides,
  });

  async function walk(userId: number, of: ChargeFilter): Promise<ReportRow[]> {
    const head = await subject.reader.head(userId, of);
    return subject.reader.page(userId, of, head.snapshot, null, 100);
  }

  const sources = (rows: ReportRow[]) => rows.map((row) => row.source);

  beforeAll(async () => {
    subject = await setup();
    const fixture: Array<[Contract, DailyCharge[]]> = [
      [
        contract(1, { start: D - 5 * DAY, end: D + 2 * DAY, label: 'train', templateId: 101 }),
        [
          testCharge(D - DAY, 'gpu', '24', '0.389', '9.336'),
          testCharge(D, 'gpu', '24', '0.389', '9.336'),
          testCharge(D, 'disk', '100', '0.005', '0.5'),
          testCharge(D + 2 * DAY, 'gpu', '1', '0.389', '0.389'),
        ],
      ],
      [
        contract(2, { kind: 'volume', start: D - 10 * DAY, end: D + 5 * DAY }),
        [
          testCharge(D - DAY, 'disk', '50', '0.005', '0.25'),
          testCharge(D, 'disk', '50', '0.004', '0.2'),
          testCharge(D + DAY, 'disk', '50', '0.004', '0.2'),
        ],
      ],
      [
        contract(3, { start: D - 3 * DAY, end: D + DAY, endpointId: 501, workergroupId: 601 }),
        [testCharge(D, 'gpu', '1', '0.0004', '0.0004')],
      ],
      [
        contract(4, { start: D - DAY, end: D + 4 * DAY, endpointId: 501 }),
        [testCharge(D + DAY, 'gpu', '1', '0.0004', '0.0004')],
      ],
      [contract(5, { workergroupId: 701 }), [testCharge(D, 'gpu', '2', '1', '2')]],
      [
        contract(6, { start: D - 6 * DAY, end: D + 6 * DAY }),
        [
          testCharge(D - 5 * DAY, 'gpu', '1', '1', '1'),
          testCharge(D + 5 * DAY, 'gpu', '1', '1', '1'),
        ],
      ],
      [
        contract(7, { start: D + 19 * DAY, end: D + 21 * DAY }),
        [testCharge(D + 20 * DAY, 'gpu', '1', '1', '1')],
      ],
      [contract(8, { userId: subject.other }), [testCharge(D, 'gpu', '1', '1', '1')]],
      [
        contract(9, { start: D - 2 * DAY, end: D + 3 * DAY }),
        [testCharge(D + DAY, 'gpu', '1', '0.5', '0.5')],
      ],
      [
        contract(10, { kind: 'volume', start: D - 2 * DAY, end: D + 3 * DAY }),
        [testCharge(D, 'disk', '1', '0.1', '0.1')],
      ],
      // The team's, made by main: in no walk, total or wrapper of main's own.
      [
        contract(12, { teamId: subject.team, start: D - DAY, end: D + 2 * DAY, endpointId: 501 }),
        [testCharge(D, 'gpu', '1', '3', '3')],
      ],
      [
        contract(13, { teamId: subject.team, kind: 'volume', end: D + DAY }),
        [testCharge(D, 'disk', '10', '0.1', '1')],
      ],
    ];
    for (const [stored, charges] of fixture) await subject.store(stored, charges);
  });

  it('counts the entries of a walk: contracts charged in range, wrappers in tree format', async () => {
    const totals = async (of: ChargeFilter) => (await subject.reader.head(subject.main, of)).total;
    expect(await totals(filter())).toBe(7);
    expect(await totals(filter({ format: 'tree' }))).toBe(6);
    expect(await totals(filter({ categories: ['serverless'] }))).toBe(3);
    expect(await totals(filter({ categories: ['serverless'], format: 'tree' }))).toBe(2);
    expect(await totals(filter({ categories: ['instance', 'volume'] }))).toBe(4);
    expect(await totals(filter({ gte: D + 30 * DAY, lte: D + 31 * DAY }))).toBe(0);
    expect((await subject.reader.head(subject.other, filter())).total).toBe(1);
  });

  it('walks contracts latest first: end descending, ties by source', async () => {
    const rows = await walk(subject.main, filter());
    expect(sources(rows)).toEqual([
      source('volume', 2),
      source('instance', 4),
      source('instance', 9),
      source('volume', 10),
      source('instance', 1),
      source('instance', 3),
      source('instance', 5),
    ]);
    expect(rows[4]).toEqual({
      rowKind: 'contract',
      id: id(1),
      kind: 'instance',
      source: source('instance', 1),
      start: D - 5 * DAY,
      end: D + 2 * DAY,
      label: 'train',
      templateId: 101,
      endpointId: null,
      workergroupId: null,
    });
    expect(rows[5]).toMatchObject({ endpointId: 501, workergroupId: 601 });
  });

  it('walks contracts oldest first: start ascending, ties by source', async () => {
    expect(sources(await walk(subject.main, filter({ latestFirst: false })))).toEqual([
      source('volume', 2),
      source('instance', 1),
      source('instance', 3),
      source('instance', 9),
      source('volume', 10),
      source('instance', 4),
      source('instance', 5),
    ]);
  });

  it('puts serverless contracts under their endpoint, else their workergroup, in tree format', async () => {
    const latest = await walk(subject.main, filter({ format: 'tree' }));
    expect(sources(latest)).toEqual([
      source('volume', 2),
      'endpoint-501',
      source('instance', 9),
      source('volume', 10),
      source('instance', 1),
      'workergroup-701',
    ]);
    expect(latest[1]).toEqual({
      rowKind: 'wrapper',
      source: 'endpoint-501',
      start: D - 3 * DAY,
      end: D + 4 * DAY,
      contracts: 2,
    });
    expect(latest[5]).toEqual({
      rowKind: 'wrapper',
      source: 'workergroup-701',
      start: D,
      end: D + DAY,
      contracts: 1,
    });
    const oldest = await walk(subject.main, filter({ format: 'tree', latestFirst: false }));
    expect(sources(oldest)).toEqual([
      source('volume', 2),
      source('instance', 1),
      'endpoint-501',
      source('instance', 9),
      source('volume', 10),
      'workergroup-701',
    ]);
    const wrappersOnly = await walk(
      subject.main,
      filter({ format: 'tree', categories: ['serverless'] }),
    );
    expect(sources(wrappersOnly)).toEqual(['endpoint-501', 'workergroup-701']);
  });

  it('pages strictly after a sort key, for every format and order', async () => {
    for (const format of ['table', 'tree'] as const) {
      for (const latestFirst of [true, false]) {
        const of = filter({ format, latestFirst });
        const head = await subject.reader.head(subject.main, of);
        const all = await subject.reader.page(subject.main, of, head.snapshot, null, 100);
        const walked: ReportRow[] = [];
        let after = null;
        for (;;) {
          const rows = await subject.reader.page(subject.main, of, head.snapshot, after, 2);
          walked.push(...rows);
          if (rows.length < 2) break;
          after = sortKeyOf(rows[rows.length - 1], latestFirst);
        }
        expect(sources(walked)).toEqual(sources(all));
      }
    }
  });

  it('sums the billed amounts in range per contract and per type', async () => {
    const totals = await subject.reader.contractCharges(
      [id(1), id(2), id(3), id(6)],
      RANGE.gte,
      RANGE.lte,
    );
    expect(totals.get(id(1))).toEqual({
      days: 2,
      amount: '19.172',
      items: [
        {
          type: 'gpu',
          firstDay: D - DAY,
          lastDay: D,
          quantity: '48.000',
          unit: 'hours',
          rate: '0.389',
          amount: '18.672',
        },
        {
          type: 'disk',
          firstDay: D,
          lastDay: D,
          quantity: '100.000',
          unit: 'GB-days',
          rate: '0.005',
          amount: '0.500',
        },
      ],
    });
    // The rate changed within the range: the item shows amount / quantity.
    expect(totals.get(id(2))).toMatchObject({
      days: 3,
      amount: '0.650',
      items: [{ type: 'disk', quantity: '150.000', rate: '0.004333', amount: '0.650' }],
    });
    expect(totals.get(id(3))).toMatchObject({ days: 1, amount: '0.000' });
    expect(totals.has(id(6))).toBe(false);
  });

  it("sums the billed amounts of a wrapper's contracts (each line rounded on its own)", async () => {
    const amounts = await subject.reader.wrapperAmounts(
      subject.main,
      ['endpoint-501', 'workergroup-701', 'endpoint-999'],
      RANGE.gte,
      RANGE.lte,
    );
    expect(Object.fromEntries(amounts)).toEqual({
      // Two lines of 0.0004, billed 0.000 each (their exact sum would round to 0.001).
      'endpoint-501': '0.000',
      'workergroup-701': '2.000',
    });
    const others = await subject.reader.wrapperAmounts(
      subject.other,
      ['endpoint-501'],
      RANGE.gte,
      RANGE.lte,
    );
    expect(others.size).toBe(0);
  });

  it("keeps a walk on its first page's snapshot while contracts are written", async () => {
    const of = filter();
    const head = await subject.reader.head(subject.main, of);
    await subject.store(contract(11, { end: D + 9 * DAY }), [testCharge(D, 'gpu', '1', '1', '1')]);
    const page = await subject.reader.page(subject.main, of, head.snapshot, null, 100);
    expect(sources(page)).not.toContain(source('instance', 11));
    expect(page).toHaveLength(7);
    const fresh = await walk(subject.main, of);
    expect(sources(fresh)[0]).toBe(source('instance', 11));
    expect((await subject.reader.head(subject.main, of)).total).toBe(8);
  });

  it("keeps a team's contracts to the team's key: its walks, totals and wrappers", async () => {
    const team = chargeOwnerKey({ userId: subject.main, teamId: subject.team });
    expect((await subject.reader.head(team, filter())).total).toBe(2);
    expect(sources(await walk(team, filter()))).toEqual([
      source('instance', 12),
      source('volume', 13),
    ]);
    // The team's endpoint-501 wrapper holds the team's contract only, not main's two.
    const tree = await walk(team, filter({ format: 'tree' }));
    expect(tree.map((row) => [row.source, row.rowKind === 'wrapper' ? row.contracts : 1])).toEqual([
      ['endpoint-501', 1],
      [source('volume', 13), 1],
    ]);
    const amounts = await subject.reader.wrapperAmounts(
      team,
      ['endpoint-501'],
      RANGE.gte,
      RANGE.lte,
    );
    expect(Object.fromEntries(amounts)).toEqual({ 'endpoint-501': '3.000' });
    const personal = sources(await walk(subject.main, filter()));
    expect(personal).not.toContain(source('instance', 12));
    expect(personal).not.toContain(source('volume', 13));
    // Another team (or the team's key negated, a user id) sees none of it.
    expect((await subject.reader.head(team - 1, filter())).total).toBe(0);
  });
}
