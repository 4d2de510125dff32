import { ChargeReportReader } from '../application/ports/charge-report.reader.port';
import { ChargeFilter, ReportRow, sortKeyOf } from '../domain/charge-report';
import { Contract, DailyCharge } from '../domain/contract';

/** What the contract runs against: a reader, and a way to store what it reads. */
export interface ChargeReportReaderSubject {
  reader: ChargeReportReader;
  /** Creates or replaces a contract with its charges (ContractRepository.replace). */
  store(contract: Contract, charges: DailyCharge[]): Promise<void>;
  /** The owner of the fixture's contracts, and another user. */
  main: number;
  other: number;
  /** Contract ids from firstId + 1 to firstId + 20 belong to this suite. */
  firstId: number;
}

const DAY = 86_400;
/** 2026-03-01, the middle of the range. */
const D = Date.UTC(2026, 2, 1) / 1000;
const RANGE = { gte: D - DAY, lte: D + DAY };

function charge(
  day: number,
  type: DailyCharge['type'],
  quantity: string,
  rate: string,
  amount: string,
): DailyCharge {
  const unit = type === 'gpu' ? 'hours' : type === 'disk' ? 'GB-days' : 'GB';
  return { day, type, quantity, unit, rate, amount };
}

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL, so
 * the fake the use-case tests rely on answers as the real reader does (docs/architecture.md
 * "Where do tests go?"). The fixture is one range [D - 1 day, D + 1 day] over contracts
 * chosen for the rules of docs/billing.md: membership by charge day (with a contract whose
 * charge days have a hole over the range), ties by source, wrappers of serverless
 * contracts, exact sums rounded once, and a rate that changed within the range.
 */
export function chargeReportReaderContract(setup: () => Promise<ChargeReportReaderSubject>): void {
  let subject: ChargeReportReaderSubject;
  const id = (n: number) => subject.firstId + n;
  const source = (kind: 'instance' | 'volume', n: number) => `${kind}-${id(n)}`;

  function contract(n: number, overrides: Partial<Contract>): Contract {
    return {
      id: id(n),
      userId: subject.main,
      kind: 'instance',
      start: D,
      end: D + DAY,
      label: null,
      templateId: null,
      endpointId: null,
      workergroupId: null,
      ...overrides,
    };
  }

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
          charge(D - DAY, 'gpu', '24', '0.389', '9.336'),
          charge(D, 'gpu', '24', '0.389', '9.336'),
          charge(D, 'disk', '100', '0.005', '0.5'),
          charge(D + 2 * DAY, 'gpu', '1', '0.389', '0.389'),
        ],
      ],
      [
        contract(2, { kind: 'volume', start: D - 10 * DAY, end: D + 5 * DAY }),
        [
          charge(D - DAY, 'disk', '50', '0.005', '0.25'),
          charge(D, 'disk', '50', '0.004', '0.2'),
          charge(D + DAY, 'disk', '50', '0.004', '0.2'),
        ],
      ],
      [
        contract(3, { start: D - 3 * DAY, end: D + DAY, endpointId: 501, workergroupId: 601 }),
        [charge(D, 'gpu', '1', '0.0004', '0.0004')],
      ],
      [
        contract(4, { start: D - DAY, end: D + 4 * DAY, endpointId: 501 }),
        [charge(D + DAY, 'gpu', '1', '0.0004', '0.0004')],
      ],
      [contract(5, { workergroupId: 701 }), [charge(D, 'gpu', '2', '1', '2')]],
      [
        contract(6, { start: D - 6 * DAY, end: D + 6 * DAY }),
        [charge(D - 5 * DAY, 'gpu', '1', '1', '1'), charge(D + 5 * DAY, 'gpu', '1', '1', '1')],
      ],
      [
        contract(7, { start: D + 19 * DAY, end: D + 21 * DAY }),
        [charge(D + 20 * DAY, 'gpu', '1', '1', '1')],
      ],
      [contract(8, { userId: subject.other }), [charge(D, 'gpu', '1', '1', '1')]],
      [
        contract(9, { start: D - 2 * DAY, end: D + 3 * DAY }),
        [charge(D + DAY, 'gpu', '1', '0.5', '0.5')],
      ],
      [
        contract(10, { kind: 'volume', start: D - 2 * DAY, end: D + 3 * DAY }),
        [charge(D, 'disk', '1', '0.1', '0.1')],
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

  it('sums the charges in range per contract and per type, rounded once', async () => {
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

  it("sums a wrapper's contracts exactly, then rounds", async () => {
    const amounts = await subject.reader.wrapperAmounts(
      subject.main,
      ['endpoint-501', 'workergroup-701', 'endpoint-999'],
      RANGE.gte,
      RANGE.lte,
    );
    expect(Object.fromEntries(amounts)).toEqual({
      'endpoint-501': '0.001',
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
    await subject.store(contract(11, { end: D + 9 * DAY }), [charge(D, 'gpu', '1', '1', '1')]);
    const page = await subject.reader.page(subject.main, of, head.snapshot, null, 100);
    expect(sources(page)).not.toContain(source('instance', 11));
    expect(page).toHaveLength(7);
    const fresh = await walk(subject.main, of);
    expect(sources(fresh)[0]).toBe(source('instance', 11));
    expect((await subject.reader.head(subject.main, of)).total).toBe(8);
  });
}
