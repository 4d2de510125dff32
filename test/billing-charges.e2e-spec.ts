import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi } from '@test/support/api';
import { chargeItem, contractEntry, wrapperEntry } from '@test/support/charge-entries';
import { waitFor } from '@test/support/wait';

/**
 * GET /api/v0/charges/ over HTTP on hand-written fixtures (ids 10000-19999). Every amount
 * below is computed by hand from the charges listed in FIXTURES. Every request is encoded
 * as the public client encodes it (docs/billing.md, "Query parsing"): quote_plus of Python's json.dumps
 * for select_filters (", " and ": " separators, so "+" for spaces), parameters in the
 * client's order.
 */
const DAY = 86_400;
const D0 = 1_767_225_600; // 2026-01-01T00:00Z
const day = (n: number) => D0 + n * DAY;
const HOUR = 3600;

const MAIN = 10001;
const OTHER = 10002;
const BULK = 10003;
const KEY = 'billing-e2e-key-10001';
const OTHER_KEY = 'billing-e2e-key-10002';
const BULK_KEY = 'billing-e2e-key-10003';
const auth = { Authorization: `Bearer ${KEY}` };

type Charge = [number, string, string, string, string, string];
function charges(rows: Charge[]) {
  return rows.map(([d, type, quantity, unit, rate, amount]) => ({
    day: d,
    type,
    quantity,
    unit,
    rate,
    amount,
  }));
}

function contract(
  id: number,
  userId: number,
  kind: 'instance' | 'volume',
  start: number,
  end: number,
  extra: Partial<Record<'label' | 'template_id' | 'endpoint_id' | 'workergroup_id', unknown>>,
  rows: Charge[],
) {
  return {
    id,
    user_id: userId,
    kind,
    start,
    end,
    label: null,
    template_id: null,
    endpoint_id: null,
    workergroup_id: null,
    ...extra,
    charges: charges(rows),
  };
}

// Range R1 = [day 0, day 3].
const R1_CONTRACTS = [
  // gpu 23+24+24+2 = 73 h x 0.389 = 28.397; disk 4 x 0.5 = 2; bwd 0.142; bwu 0.0248
  // total 30.5638 -> 30.564
  contract(
    11001,
    MAIN,
    'instance',
    day(0) + HOUR,
    day(3) + 2 * HOUR,
    { label: 'train', template_id: 101 },
    [
      [day(0), 'gpu', '23', 'hours', '0.389', '8.947'],
      [day(1), 'gpu', '24', 'hours', '0.389', '9.336'],
      [day(2), 'gpu', '24', 'hours', '0.389', '9.336'],
      [day(3), 'gpu', '2', 'hours', '0.389', '0.778'],
      [day(0), 'disk', '100', 'GB-days', '0.005', '0.5'],
      [day(1), 'disk', '100', 'GB-days', '0.005', '0.5'],
      [day(2), 'disk', '100', 'GB-days', '0.005', '0.5'],
      [day(3), 'disk', '100', 'GB-days', '0.005', '0.5'],
      [day(1), 'bwd', '14.2', 'GB', '0.01', '0.142'],
      [day(2), 'bwu', '3.1', 'GB', '0.008', '0.0248'],
    ],
  ),
  // In R1: days 1-3, 150 GB-days x 0.004 = 0.6 (day 4 is outside R1).
  contract(11002, MAIN, 'volume', day(1), day(5), {}, [
    [day(1), 'disk', '50', 'GB-days', '0.004', '0.2'],
    [day(2), 'disk', '50', 'GB-days', '0.004', '0.2'],
    [day(3), 'disk', '50', 'GB-days', '0.004', '0.2'],
    [day(4), 'disk', '50', 'GB-days', '0.004', '0.2'],
  ]),
  // Serverless under endpoint 501: 9 + 3 = 12 and 6 + 6 = 12; the wrapper 24.
  contract(
    11004,
    MAIN,
    'instance',
    day(1) + 6 * HOUR,
    day(2) + 6 * HOUR,
    { endpoint_id: 501, workergroup_id: 601 },
    [
      [day(1), 'gpu', '18', 'hours', '0.5', '9.0'],
      [day(2), 'gpu', '6', 'hours', '0.5', '3.0'],
    ],
  ),
  contract(
    11005,
    MAIN,
    'instance',
    day(0) + 12 * HOUR,
    day(1) + 12 * HOUR,
    { endpoint_id: 501, workergroup_id: 602 },
    [
      [day(0), 'gpu', '12', 'hours', '0.5', '6.0'],
      [day(1), 'gpu', '12', 'hours', '0.5', '6.0'],
    ],
  ),
  // Serverless under a bare workergroup: 24 h x 0.25 = 6.
  contract(11006, MAIN, 'instance', day(2), day(3), { workergroup_id: 701, label: 'wg' }, [
    [day(2), 'gpu', '24', 'hours', '0.25', '6.0'],
  ]),
  // Charge days with a hole (day 0 and day 5): in R1 only day 0 counts (0.4); not in [day 1, day 4].
  contract(11008, MAIN, 'instance', day(0), day(6), {}, [
    [day(0), 'gpu', '1', 'hours', '0.4', '0.4'],
    [day(5), 'gpu', '1', 'hours', '0.4', '0.4'],
  ]),
  // Charged only on day 10: never in R1.
  contract(11007, MAIN, 'instance', day(10), day(11), {}, [
    [day(10), 'gpu', '1', 'hours', '1', '1'],
  ]),
  // Another user's contract in R1: never in MAIN's report.
  contract(12001, OTHER, 'instance', day(0), day(2), {}, [[day(1), 'gpu', '2', 'hours', '1', '2']]),
];

// Billed amounts, range [day 20, day 29]: each line is billed at its amount rounded half
// away from zero to 3 decimals, items and entries are sums of billed lines (docs/billing.md
// "Billed amounts"):
//  bwu 10 x 0.00045, each billed 0.000 -> 0 (the exact sum 0.0045 would round to 0.005);
//  bwd 7 x 0.0715, each billed 0.072 -> 0.504 (exact 0.5005 -> 0.501);
//  gpu 0.0005 -> 0.001; the entry 0.001 + 0.504 + 0 = 0.505, the sum of its items.
const ROUNDING = contract(11003, MAIN, 'instance', day(20), day(30), {}, [
  [day(20), 'gpu', '0.001', 'hours', '0.5', '0.0005'],
  ...Array.from({ length: 10 }, (_, i): Charge => [
    day(20 + i),
    'bwu',
    '0.05625',
    'GB',
    '0.008',
    '0.00045',
  ]),
  ...Array.from({ length: 7 }, (_, i): Charge => [
    day(20 + i),
    'bwd',
    '7.15',
    'GB',
    '0.01',
    '0.0715',
  ]),
]);

// Walk range [day 40, day 40]: 25 contracts, 5 end values shared by 5 each (ties by source).
const WALK_IDS = Array.from({ length: 25 }, (_, i) => 11100 + i);
function walkGroup(id: number): Record<string, number> {
  if (id === 11120 || id === 11121) return { endpoint_id: 801, workergroup_id: 8011 };
  if (id === 11122) return { endpoint_id: 802 };
  if (id === 11123 || id === 11124) return { workergroup_id: 901 };
  return {};
}
const WALK = WALK_IDS.map((id, i) =>
  contract(
    id,
    MAIN,
    i % 4 === 3 ? 'volume' : 'instance',
    day(40) - (i % 3) * HOUR,
    day(40) + (i % 5) * HOUR,
    walkGroup(id),
    [[day(40), 'disk', '2', 'GB-days', '0.5', '1.000']],
  ),
);
// 11123 is an instance above (i = 23 -> 23 % 4 = 3 would be a volume): keep serverless rows instances.
for (const row of WALK)
  if (row.endpoint_id !== null || row.workergroup_id !== null) row.kind = 'instance';

// The public client's observed URL: range 2025-11-01 .. 2025-11-05.
const OBSERVED = [
  contract(11200, MAIN, 'volume', 1761955200, 1762128000, { label: 'data' }, [
    [1762041600, 'disk', '10', 'GB-days', '0.01', '0.1'],
  ]),
  contract(11201, MAIN, 'instance', 1761955200, 1762128000, { endpoint_id: 19392 }, [
    [1762041600, 'gpu', '1', 'hours', '1', '1'],
  ]),
];

// Metadata, range [day 70, day 70]: each key alone, all four, none.
const METADATA = [
  contract(11500, MAIN, 'instance', day(69), day(70) + 6 * HOUR, { template_id: 7 }, [
    [day(70), 'gpu', '1', 'hours', '1', '1'],
  ]),
  contract(11501, MAIN, 'volume', day(69), day(70) + 5 * HOUR, { label: 'only-label' }, [
    [day(70), 'disk', '1', 'GB-days', '1', '1'],
  ]),
  contract(11502, MAIN, 'instance', day(69), day(70) + 4 * HOUR, { endpoint_id: 503 }, [
    [day(70), 'gpu', '1', 'hours', '1', '1'],
  ]),
  contract(11503, MAIN, 'instance', day(69), day(70) + 3 * HOUR, { workergroup_id: 703 }, [
    [day(70), 'gpu', '1', 'hours', '1', '1'],
  ]),
  contract(
    11504,
    MAIN,
    'instance',
    day(69),
    day(70) + 2 * HOUR,
    { template_id: 8, label: 'all', endpoint_id: 503, workergroup_id: 704 },
    [[day(70), 'gpu', '1', 'hours', '1', '1']],
  ),
  contract(11505, MAIN, 'instance', day(69), day(70) + 1 * HOUR, {}, [
    [day(70), 'gpu', '1', 'hours', '1', '1'],
  ]),
];

// Wrapper amounts, range [day 80, day 80]: a wrapper is the sum of its contracts' billed
// lines, so it is the sum of its contracts' entries.
//  endpoint 504: 0.0004 and 0.0004, billed 0.000 each -> 0 (the exact sum would round to 0.001);
//  workergroup 705: 0.0015 and 0.0015, billed 0.002 each -> 0.004 (exact 0.003).
const WRAPPER_ROUNDING = [
  contract(11510, MAIN, 'instance', day(80), day(80) + 2 * HOUR, { endpoint_id: 504 }, [
    [day(80), 'gpu', '0.001', 'hours', '0.4', '0.0004'],
  ]),
  contract(11511, MAIN, 'instance', day(80), day(80) + 3 * HOUR, { endpoint_id: 504 }, [
    [day(80), 'gpu', '0.001', 'hours', '0.4', '0.0004'],
  ]),
  contract(11512, MAIN, 'instance', day(80), day(80) + 1 * HOUR, { workergroup_id: 705 }, [
    [day(80), 'gpu', '0.001', 'hours', '1.5', '0.0015'],
  ]),
  contract(11513, MAIN, 'instance', day(80), day(80) + 1 * HOUR, { workergroup_id: 705 }, [
    [day(80), 'gpu', '0.001', 'hours', '1.5', '0.0015'],
  ]),
];

// 501 contracts for the limit cap.
const BULK_CONTRACTS = Array.from({ length: 501 }, (_, i) =>
  contract(13000 + i, BULK, 'instance', day(50), day(51) + i, {}, [
    [day(50), 'gpu', '1', 'hours', '1', '1'],
  ]),
);

const FIXTURES = {
  users: [
    { id: MAIN, email: 'billing-e2e-10001@example.test', api_key: KEY, verified: true },
    { id: OTHER, email: 'billing-e2e-10002@example.test', api_key: OTHER_KEY, verified: true },
    { id: BULK, email: 'billing-e2e-10003@example.test', api_key: BULK_KEY, verified: true },
  ],
  contracts: [
    ...R1_CONTRACTS,
    ROUNDING,
    ...WALK,
    ...OBSERVED,
    ...METADATA,
    ...WRAPPER_ROUNDING,
    ...BULK_CONTRACTS,
  ],
};

type Filters = { day: { gte: number; lte: number }; type?: { in: string[] } };

function filters(gte: number, lte: number, types?: string[]): Filters {
  return { day: { gte, lte }, ...(types ? { type: { in: types } } : {}) };
}

/** Python's json.dumps with its default separators ", " and ": ". */
function pyJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`);
    return `{${members.join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** urllib.parse.quote_plus: only A-Z a-z 0-9 _ . - ~ stay, a space becomes "+". */
function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

interface ChargesQuery {
  select_filters?: Filters | string;
  latest_first?: boolean | string;
  limit?: number | string;
  format?: string;
  after_token?: string;
}

/**
 * The query string as the public client builds it: `key=quote_plus(v)` for a str,
 * `key=quote_plus(json.dumps(v))` otherwise, in the client's parameter order.
 */
function clientQueryString(query: ChargesQuery): string {
  const order = ['select_filters', 'latest_first', 'limit', 'format', 'after_token'] as const;
  return order
    .filter((key) => query[key] !== undefined)
    .map((key) => {
      const value = query[key];
      return `${key}=${quotePlus(typeof value === 'string' ? value : pyJson(value))}`;
    })
    .join('&');
}

describe('GET /api/v0/charges/', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
    // Contracts written by an earlier run's concurrent-write test are not in FIXTURES.
    const db = api.app.get(DataSource);
    const users = [[MAIN, OTHER, BULK]];
    await db.query(`DELETE FROM billing_contracts WHERE user_id = ANY($1)`, users);
    await db.query(`DELETE FROM billing_report_days WHERE owner_key = ANY($1)`, users);
    await loadFixtures(api, FIXTURES);
    // Loading again must not duplicate charges or rollups.
    await loadFixtures(api, FIXTURES);
    // An api start and a fixtures load: on a machine whose cores other files share, more than
    // the default hook bound was seen once.
  }, 300_000);

  afterAll(() => api.close());

  function get(query: ChargesQuery, headers: Record<string, string> = auth) {
    return api
      .http()
      .get(`/api/v0/charges/?${clientQueryString(query)}`)
      .set(headers);
  }

  it('encodes requests exactly as the public client does', () => {
    expect(
      clientQueryString({
        select_filters: filters(1761955200, 1762300800, ['instance', 'volume']),
        latest_first: true,
        limit: 100,
        format: 'tree',
        after_token: 'TOKEN123',
      }),
    ).toBe(
      'select_filters=%7B%22day%22%3A+%7B%22gte%22%3A+1761955200%2C+%22lte%22%3A+1762300800%7D%2C+%22type%22%3A+%7B%22in%22%3A+%5B%22instance%22%2C+%22volume%22%5D%7D%7D&latest_first=true&limit=100&format=tree&after_token=TOKEN123',
    );
  });

  it('answers the table format with exact amounts, items and descriptions', async () => {
    const response = await get({ select_filters: filters(day(0), day(3)) });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.total).toBe(6);
    expect(response.body.count).toBe(6);
    expect(response.body.next_token).toBeNull();
    const results = response.body.results as Array<Record<string, unknown>>;
    expect(results.map((entry) => entry.source)).toEqual([
      'instance-11008',
      'volume-11002',
      'instance-11001',
      'instance-11006',
      'instance-11004',
      'instance-11005',
    ]);
    expect(results[2]).toEqual(
      contractEntry({
        kind: 'instance',
        id: 11001,
        start: day(0) + HOUR,
        end: day(3) + 2 * HOUR,
        days: 4,
        amount: 30.564,
        metadata: { template_id: 101, label: 'train' },
        items: [
          chargeItem('gpu', day(0), day(4), '73.000 hours at $0.389/hour', 28.397),
          chargeItem('disk', day(0), day(4), '400.000 GB-days at $0.005/GB-day', 2),
          chargeItem('bwd', day(1), day(2), '14.200 GB downloaded', 0.142),
          chargeItem('bwu', day(2), day(3), '3.100 GB uploaded', 0.025),
        ],
      }),
    );
    expect(results[1]).toMatchObject({
      type: 'volume',
      description: 'Volume 11002 Charges - 3 days',
      amount: 0.6,
      metadata: {},
      items: [
        {
          type: 'disk',
          start: day(1),
          end: day(4),
          description: '150.000 GB-days at $0.004/GB-day',
          amount: 0.6,
        },
      ],
    });
    expect(results[0]).toMatchObject({
      amount: 0.4,
      description: 'Instance 11008 Charges - 1 day',
    });
    // Serverless contracts are instance rows carrying their endpoint/workergroup metadata.
    expect(results[3]).toMatchObject({
      type: 'instance',
      amount: 6,
      metadata: { workergroup_id: 701, label: 'wg' },
    });
    expect(results[4]).toMatchObject({
      amount: 12,
      metadata: { endpoint_id: 501, workergroup_id: 601 },
    });
    expect(results[5]).toMatchObject({
      amount: 12,
      metadata: { endpoint_id: 501, workergroup_id: 602 },
    });
  });

  it('omits metadata keys whose value is null', async () => {
    const response = await get({ select_filters: filters(day(0), day(3)) });
    const bySource = Object.fromEntries(
      (response.body.results as Array<{ source: string; metadata: object }>).map((entry) => [
        entry.source,
        entry.metadata,
      ]),
    );
    expect(Object.keys(bySource['volume-11002'])).toEqual([]);
    expect(Object.keys(bySource['instance-11008'])).toEqual([]);
    expect(bySource['instance-11001']).toStrictEqual({ template_id: 101, label: 'train' });
    expect(bySource['instance-11006']).toStrictEqual({ label: 'wg', workergroup_id: 701 });
  });

  it('answers the tree format: serverless contracts collapse into endpoint and workergroup wrappers', async () => {
    const response = await get({ select_filters: filters(day(0), day(3)), format: 'tree' });
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(5);
    const results = response.body.results as Array<Record<string, unknown>>;
    expect(results.map((entry) => entry.source)).toEqual([
      'instance-11008',
      'volume-11002',
      'instance-11001',
      'workergroup-701',
      'endpoint-501',
    ]);
    expect(results[3]).toEqual(
      wrapperEntry({
        group: 'workergroup',
        id: 701,
        start: day(2),
        end: day(3),
        contracts: 1,
        amount: 6,
      }),
    );
    expect(results[4]).toEqual(
      wrapperEntry({
        group: 'endpoint',
        id: 501,
        start: day(0) + 12 * HOUR,
        end: day(2) + 6 * HOUR,
        contracts: 2,
        amount: 24,
      }),
    );
    expect(results[2]).toMatchObject({ type: 'instance', amount: 30.564 });
  });

  it('orders by start ascending with latest_first=false, in both formats', async () => {
    const table = await get({ select_filters: filters(day(0), day(3)), latest_first: 'false' });
    expect(table.body.results.map((entry: { source: string }) => entry.source)).toEqual([
      'instance-11008',
      'instance-11001',
      'instance-11005',
      'volume-11002',
      'instance-11004',
      'instance-11006',
    ]);
    const tree = await get({
      select_filters: filters(day(0), day(3)),
      latest_first: 'false',
      format: 'tree',
    });
    expect(tree.body.results.map((entry: { source: string }) => entry.source)).toEqual([
      'instance-11008',
      'instance-11001',
      'endpoint-501',
      'volume-11002',
      'workergroup-701',
    ]);
  });

  it('filters by each type class', async () => {
    const sources = async (types: string[], format = 'table') => {
      const response = await get({ select_filters: filters(day(0), day(3), types), format });
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(response.body.count);
      return response.body.results.map((entry: { source: string }) => entry.source);
    };
    expect(await sources(['instance'])).toEqual(['instance-11008', 'instance-11001']);
    expect(await sources(['volume'])).toEqual(['volume-11002']);
    expect(await sources(['serverless'])).toEqual([
      'instance-11006',
      'instance-11004',
      'instance-11005',
    ]);
    expect(await sources(['serverless'], 'tree')).toEqual(['workergroup-701', 'endpoint-501']);
    expect(await sources(['instance', 'volume'], 'tree')).toEqual([
      'instance-11008',
      'volume-11002',
      'instance-11001',
    ]);
    expect(await sources(['volume', 'serverless', 'volume'], 'tree')).toEqual([
      'volume-11002',
      'workergroup-701',
      'endpoint-501',
    ]);
  });

  it('counts only charge days inside the range (a contract with a hole in its charge days)', async () => {
    const response = await get({ select_filters: filters(day(1), day(4)) });
    const sources = response.body.results.map((entry: { source: string }) => entry.source);
    expect(sources).not.toContain('instance-11008');
    expect(sources).toContain('volume-11002');
    expect(
      response.body.results.find((e: { source: string }) => e.source === 'volume-11002').amount,
    ).toBe(0.8);
    const later = await get({ select_filters: filters(day(5), day(12)) });
    expect(later.body.results.map((entry: { source: string }) => entry.source)).toEqual([
      'instance-11007',
      'instance-11008',
    ]);
  });

  it('bills each line rounded to 3 decimals; items and the entry are sums of billed lines', async () => {
    const response = await get({ select_filters: filters(day(20), day(29)) });
    expect(response.body.results).toEqual([
      expect.objectContaining({
        source: 'instance-11003',
        description: 'Instance 11003 Charges - 10 days',
        amount: 0.505,
        items: [
          expect.objectContaining({
            type: 'gpu',
            amount: 0.001,
            description: '0.001 hours at $0.500/hour',
          }),
          expect.objectContaining({
            type: 'bwd',
            amount: 0.504,
            description: '50.050 GB downloaded',
          }),
          expect.objectContaining({ type: 'bwu', amount: 0, description: '0.563 GB uploaded' }),
        ],
      }),
    ]);
  });

  it('gives each item the first and last charged day inside the range, and counts those days', async () => {
    // [day 1, day 4]: 11001 is charged days 0-3, so only days 1-3 count.
    const response = await get({ select_filters: filters(day(1), day(4)) });
    const entry = response.body.results.find(
      (e: { source: string }) => e.source === 'instance-11001',
    );
    // gpu 24+24+2 = 50 h = 19.45; disk 300 GB-days = 1.5; bwd 0.142; bwu 0.0248: 21.1168.
    expect(entry).toEqual(
      contractEntry({
        kind: 'instance',
        id: 11001,
        start: day(0) + HOUR,
        end: day(3) + 2 * HOUR,
        days: 3,
        amount: 21.117,
        metadata: { template_id: 101, label: 'train' },
        items: [
          chargeItem('gpu', day(1), day(4), '50.000 hours at $0.389/hour', 19.45),
          chargeItem('disk', day(1), day(4), '300.000 GB-days at $0.005/GB-day', 1.5),
          chargeItem('bwd', day(1), day(2), '14.200 GB downloaded', 0.142),
          chargeItem('bwu', day(2), day(3), '3.100 GB uploaded', 0.025),
        ],
      }),
    );
  });

  it('puts each metadata key only when it is non-null, in both formats', async () => {
    const table = await get({ select_filters: filters(day(70), day(70)) });
    expect(
      table.body.results.map((e: { source: string; metadata: object }) => [e.source, e.metadata]),
    ).toStrictEqual([
      ['instance-11500', { template_id: 7 }],
      ['volume-11501', { label: 'only-label' }],
      ['instance-11502', { endpoint_id: 503 }],
      ['instance-11503', { workergroup_id: 703 }],
      ['instance-11504', { template_id: 8, label: 'all', endpoint_id: 503, workergroup_id: 704 }],
      ['instance-11505', {}],
    ]);
    const tree = await get({ select_filters: filters(day(70), day(70)), format: 'tree' });
    expect(
      tree.body.results.map((e: { source: string; metadata: object }) => [e.source, e.metadata]),
    ).toStrictEqual([
      ['instance-11500', { template_id: 7 }],
      ['volume-11501', { label: 'only-label' }],
      // 11502 and 11504 (which also has a workergroup) collapse under their endpoint.
      ['endpoint-503', { endpoint_id: 503 }],
      ['workergroup-703', { workergroup_id: 703 }],
      ['instance-11505', {}],
    ]);
    expect(tree.body.results[2]).toMatchObject({
      start: day(69),
      end: day(70) + 4 * HOUR,
      description: 'Endpoint 503 Charges - 2 contracts',
      amount: 2,
      items: [],
    });
  });

  it("sums a wrapper's contracts' billed amounts, so it adds up to their entries", async () => {
    const table = await get({ select_filters: filters(day(80), day(80)) });
    expect(
      table.body.results.map((e: { source: string; amount: number }) => [e.source, e.amount]),
    ).toEqual([
      ['instance-11511', 0],
      ['instance-11510', 0],
      ['instance-11512', 0.002],
      ['instance-11513', 0.002],
    ]);
    const tree = await get({ select_filters: filters(day(80), day(80)), format: 'tree' });
    expect(tree.body).toEqual({
      success: true,
      count: 2,
      total: 2,
      next_token: null,
      results: [
        wrapperEntry({
          group: 'endpoint',
          id: 504,
          start: day(80),
          end: day(80) + 3 * HOUR,
          contracts: 2,
          amount: 0,
        }),
        wrapperEntry({
          group: 'workergroup',
          id: 705,
          start: day(80),
          end: day(80) + HOUR,
          contracts: 2,
          amount: 0.004,
        }),
      ],
    });
  });

  it('counts a type listed twice once (the client keeps duplicates)', async () => {
    const once = await get({ select_filters: filters(day(0), day(3), ['instance']) });
    const twice = await get({
      select_filters: filters(day(0), day(3), ['instance', 'instance']),
    });
    expect(twice.status).toBe(200);
    expect(twice.body).toEqual(once.body);
    expect(twice.body.total).toBe(2);
    const mixed = await get({
      select_filters: filters(day(0), day(3), ['serverless', 'volume', 'serverless']),
    });
    expect(mixed.body.total).toBe(4);
    expect(mixed.body.results.map((e: { source: string }) => e.source)).toEqual([
      'volume-11002',
      'instance-11006',
      'instance-11004',
      'instance-11005',
    ]);
    // All three classes (with repeats) are the whole report.
    const all = await get({
      select_filters: filters(day(0), day(3), ['volume', 'instance', 'serverless', 'instance']),
    });
    const none = await get({ select_filters: filters(day(0), day(3)) });
    expect(all.body).toEqual(none.body);
  });

  describe('keyset pagination', () => {
    const walkFilters = filters(day(40), day(40));

    async function walk(query: ChargesQuery): Promise<{ sources: string[]; totals: number[] }> {
      const sources: string[] = [];
      const totals: number[] = [];
      let token: string | null = null;
      for (let page = 0; page < 100; page += 1) {
        const response = await get({ ...query, ...(token ? { after_token: token } : {}) });
        expect(response.status).toBe(200);
        expect(response.body.count).toBe(response.body.results.length);
        sources.push(...response.body.results.map((entry: { source: string }) => entry.source));
        totals.push(response.body.total);
        token = response.body.next_token;
        if (token === null) return { sources, totals };
        expect(response.body.count).toBe(query.limit);
      }
      throw new Error('walk did not end');
    }

    // The expected order, built independently of the server: keys from the fixtures.
    function expectedOrder(format: 'table' | 'tree', latestFirst: boolean): string[] {
      const entries = new Map<string, { start: number; end: number }>();
      for (const row of WALK) {
        const group =
          format === 'tree' && row.kind === 'instance'
            ? row.endpoint_id !== null
              ? `endpoint-${row.endpoint_id}`
              : row.workergroup_id !== null
                ? `workergroup-${row.workergroup_id}`
                : null
            : null;
        const source = group ?? `${row.kind}-${row.id}`;
        const known = entries.get(source);
        entries.set(source, {
          start: Math.min(known?.start ?? Infinity, row.start),
          end: Math.max(known?.end ?? -Infinity, row.end),
        });
      }
      return [...entries.entries()]
        .sort(([sa, a], [sb, b]) => {
          const by = latestFirst ? b.end - a.end : a.start - b.start;
          return by !== 0 ? by : sa < sb ? -1 : sa > sb ? 1 : 0;
        })
        .map(([source]) => source);
    }

    for (const format of ['table', 'tree'] as const) {
      for (const latestFirst of [true, false]) {
        for (const limit of [1, 7]) {
          it(`walks every ${format} entry exactly once (latest_first=${latestFirst}, limit ${limit})`, async () => {
            const { sources, totals } = await walk({
              select_filters: walkFilters,
              format,
              latest_first: latestFirst,
              limit,
            });
            const expected = expectedOrder(format, latestFirst);
            expect(expected).toHaveLength(format === 'table' ? 25 : 23);
            expect(sources).toEqual(expected);
            expect(new Set(totals)).toEqual(new Set([expected.length]));
          });
        }
      }
    }

    it('neither skips nor repeats entries while other contracts are written', async () => {
      const expected = expectedOrder('tree', true);
      const seen: string[] = [];
      let token: string | null = null;
      let writes = 0;
      do {
        const response = await get({
          select_filters: walkFilters,
          format: 'tree',
          limit: 4,
          ...(token ? { after_token: token } : {}),
        });
        expect(response.status).toBe(200);
        expect(response.body.total).toBe(expected.length);
        seen.push(...response.body.results.map((entry: { source: string }) => entry.source));
        token = response.body.next_token;
        // New contracts: one that would sort first, one that would join (and move) a wrapper.
        writes += 1;
        await loadFixtures(api, {
          contracts: [
            contract(11300 + writes, MAIN, 'instance', day(39), day(45), {}, [
              [day(40), 'gpu', '1', 'hours', '1', '1'],
            ]),
            contract(11400 + writes, MAIN, 'instance', day(38), day(46), { endpoint_id: 802 }, [
              [day(40), 'gpu', '1', 'hours', '1', '1'],
            ]),
          ],
        });
      } while (token !== null);
      expect(seen).toEqual(expected);
      // A fresh walk sees the new contracts.
      const fresh = await get({ select_filters: walkFilters, format: 'tree', limit: 500 });
      expect(fresh.body.total).toBe(expected.length + writes);
    });

    it('keeps a walk to the contracts committed when its first page was served, even one being written then', async () => {
      const db = api.app.get(DataSource);
      let expected: string[] = [];
      // A writer holds its new serverless contract uncommitted across page 1: it is blocked
      // on the summary row of its wrapper, which this transaction locks.
      const blocker = db.createQueryRunner();
      await blocker.connect();
      await blocker.startTransaction();
      let writing: Promise<unknown> = Promise.resolve();
      let first: { status: number; body: { total: number; next_token: string; results: [] } };
      try {
        await blocker.query(
          `SELECT 1 FROM billing_report_days
            WHERE owner_key = $1 AND bucket = 'endpoint-801' AND day = $2 FOR UPDATE`,
          [MAIN, day(40)],
        );
        // It would move endpoint-801 (end day 40 + 1h, not on page 1) to the very front.
        writing = loadFixtures(api, {
          contracts: [
            contract(11600, MAIN, 'instance', day(38), day(47), { endpoint_id: 801 }, [
              [day(40), 'gpu', '1', 'hours', '1', '1'],
            ]),
          ],
        });
        await waitFor(
          async () => {
            const [{ n }] = await db.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                  AND query LIKE '%INSERT INTO billing_report_days%'`,
            );
            return n as number;
          },
          (n) => n > 0,
          { what: 'the writer to block on the lock' },
        );
        // A later writer commits meanwhile: its newer transaction id is visible, the
        // blocked writer's older one must stay invisible all the same.
        await loadFixtures(api, {
          contracts: [
            contract(11601, MAIN, 'instance', day(40), day(40) + 30 * 60, {}, [
              [day(40), 'gpu', '1', 'hours', '1', '1'],
            ]),
          ],
        });
        const baseline = await get({ select_filters: walkFilters, format: 'tree', limit: 500 });
        expected = baseline.body.results.map((entry: { source: string }) => entry.source);
        expect(expected).toContain('instance-11601');
        first = await get({ select_filters: walkFilters, format: 'tree', limit: 4 });
      } finally {
        await blocker.commitTransaction();
        await blocker.release();
      }
      await writing;
      expect(first.status).toBe(200);
      expect(first.body.total).toBe(expected.length);
      const seen: string[] = first.body.results.map((entry: { source: string }) => entry.source);
      let token: string | null = first.body.next_token;
      while (token !== null) {
        const response = await get({
          select_filters: walkFilters,
          format: 'tree',
          limit: 4,
          after_token: token,
        });
        expect(response.status).toBe(200);
        expect(response.body.total).toBe(expected.length);
        seen.push(...response.body.results.map((entry: { source: string }) => entry.source));
        token = response.body.next_token;
      }
      expect(seen).toEqual(expected);
      expect(seen).toContain('endpoint-801');
      // The next walk sees it: endpoint-801 now ends on day 47 and comes first.
      const next = await get({ select_filters: walkFilters, format: 'tree', limit: 1 });
      expect(next.body.results[0]).toMatchObject({
        source: 'endpoint-801',
        end: day(47),
        description: 'Endpoint 801 Charges - 3 contracts',
      });
    });

    it('serves a limit above 500 as 500', async () => {
      const at501 = await get(
        { select_filters: filters(day(50), day(50)), limit: 501 },
        { Authorization: `Bearer ${BULK_KEY}` },
      );
      expect(at501.body).toMatchObject({ success: true, count: 500, total: 501 });
      const response = await get(
        { select_filters: filters(day(50), day(50)), limit: 1000 },
        { Authorization: `Bearer ${BULK_KEY}` },
      );
      expect(response.status).toBe(200);
      expect(response.body.total).toBe(501);
      expect(response.body.count).toBe(500);
      expect(typeof response.body.next_token).toBe('string');
      const rest = await get(
        {
          select_filters: filters(day(50), day(50)),
          limit: 1000,
          after_token: response.body.next_token,
        },
        { Authorization: `Bearer ${BULK_KEY}` },
      );
      expect(rest.body).toMatchObject({ count: 1, total: 501, next_token: null });
      expect(rest.body.results[0].source).toBe('instance-13000');
    });

    it('defaults to 100 entries per page', async () => {
      const response = await get(
        { select_filters: filters(day(50), day(50)) },
        { Authorization: `Bearer ${BULK_KEY}` },
      );
      expect(response.body.count).toBe(100);
    });
  });

  describe('invalid pagination tokens', () => {
    const invalid = { success: false, error: 'invalid_token', msg: 'Invalid pagination token' };

    async function firstToken(query: ChargesQuery, headers = auth): Promise<string> {
      const response = await get({ ...query, limit: 1 }, headers);
      expect(typeof response.body.next_token).toBe('string');
      return response.body.next_token as string;
    }

    it('gives the same token to the same request over unchanged data', async () => {
      const query = { select_filters: filters(day(0), day(3)), format: 'tree' };
      expect(await firstToken(query)).toBe(await firstToken(query));
    });

    it('rejects a token that does not decode', async () => {
      for (const token of ['garbage', 'a.b', '....', 'TOKEN123']) {
        const response = await get({ select_filters: filters(day(0), day(3)), after_token: token });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid);
      }
    });

    it('rejects a tampered token', async () => {
      const token = await firstToken({ select_filters: filters(day(0), day(3)) });
      const [body, mac] = token.split('.');
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      payload.v = 0;
      const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
      const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
      for (const bad of [forged, flipped]) {
        const response = await get({ select_filters: filters(day(0), day(3)), after_token: bad });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid);
      }
    });

    it('rejects a token made for other filters, another format, another order or another user', async () => {
      const token = await firstToken({ select_filters: filters(day(0), day(3)) });
      const variants: ChargesQuery[] = [
        { select_filters: filters(day(0), day(4)) },
        { select_filters: filters(day(0), day(3), ['instance']) },
        { select_filters: filters(day(0), day(3)), format: 'tree' },
        { select_filters: filters(day(0), day(3)), latest_first: 'false' },
      ];
      for (const query of variants) {
        const response = await get({ ...query, after_token: token });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(invalid);
      }
      const foreign = await get(
        { select_filters: filters(day(0), day(3)), after_token: token },
        { Authorization: `Bearer ${OTHER_KEY}` },
      );
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual(invalid);
      // The same token still continues its own walk.
      const own = await get({ select_filters: filters(day(0), day(3)), after_token: token });
      expect(own.status).toBe(200);
      expect(own.body.results[0].source).toBe('volume-11002');
    });
  });

  describe('validation (400)', () => {
    const dayMissing = {
      success: false,
      msg: "Must provide both 'day' gte and lte filters for instance charges",
    };

    it('requires both day bounds', async () => {
      const queries: ChargesQuery[] = [
        {},
        { select_filters: '{}' },
        { select_filters: JSON.stringify({ day: { gte: day(0) } }) },
        { select_filters: JSON.stringify({ day: { lte: day(0) } }) },
        { select_filters: JSON.stringify({ type: { in: ['instance'] } }) },
        { select_filters: JSON.stringify({ day: { gte: null, lte: day(0) } }) },
      ];
      for (const query of queries) {
        const response = await get(query);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(dayMissing);
      }
    });

    const badRequest = (msg: string) => ({ success: false, error: 'bad_request', msg });

    it.each([
      [
        'select_filters not JSON',
        { select_filters: '{"day": ' },
        'select_filters must be a JSON object',
      ],
      [
        'select_filters a JSON array',
        { select_filters: '[1]' },
        'select_filters must be a JSON object',
      ],
      [
        'gte > lte',
        { select_filters: filters(day(3), day(0)) },
        'select_filters.day.gte must not be greater than select_filters.day.lte',
      ],
      [
        'a fractional bound',
        { select_filters: JSON.stringify({ day: { gte: 1.5, lte: 3 } }) },
        'select_filters.day.gte must be an integer (unix seconds)',
      ],
      [
        'a string bound',
        { select_filters: JSON.stringify({ day: { gte: 1, lte: '3' } }) },
        'select_filters.day.lte must be an integer (unix seconds)',
      ],
      [
        'an unknown type',
        { select_filters: filters(0, 1, ['instance', 'gpu']) },
        'select_filters.type.in: unknown type "gpu" (expected instance, volume or serverless)',
      ],
      [
        'an empty type list',
        { select_filters: filters(0, 1, []) },
        'select_filters.type.in must list at least one of instance, volume, serverless',
      ],
      [
        'a malformed type filter',
        { select_filters: JSON.stringify({ day: { gte: 0, lte: 1 }, type: ['volume'] }) },
        'select_filters.type must be an object {"in": [...]} listing charge types',
      ],
      [
        'an unknown format',
        { select_filters: filters(0, 1), format: 'csv' },
        "format must be 'table' or 'tree'",
      ],
      [
        'limit 0',
        { select_filters: filters(0, 1), limit: '0' },
        'limit must be an integer of at least 1',
      ],
      [
        'a negative limit',
        { select_filters: filters(0, 1), limit: -5 },
        'limit must be an integer of at least 1',
      ],
      [
        'a non-integer limit',
        { select_filters: filters(0, 1), limit: '2.5' },
        'limit must be an integer of at least 1',
      ],
      [
        'a non-numeric limit',
        { select_filters: filters(0, 1), limit: 'ten' },
        'limit must be an integer of at least 1',
      ],
      [
        'latest_first not a boolean',
        { select_filters: filters(0, 1), latest_first: 'yes' },
        'latest_first must be true or false',
      ],
    ])('rejects %s with a message naming the field', async (_name, query, msg) => {
      const response = await get(query as ChargesQuery);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(badRequest(msg as string));
    });

    it('rejects a parameter given twice', async () => {
      const response = await api
        .http()
        .get(
          `/api/v0/charges/?${clientQueryString({ select_filters: filters(0, 1) })}&limit=5&limit=6`,
        )
        .set(auth);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(badRequest('limit must be given once, as a string'));
    });
  });

  describe('the public client', () => {
    const OBSERVED_URL =
      '/api/v0/charges/?select_filters=%7B%22day%22%3A+%7B%22gte%22%3A+1761955200%2C+%22lte%22%3A+1762300800%7D%2C+%22type%22%3A+%7B%22in%22%3A+%5B%22instance%22%2C+%22volume%22%5D%7D%7D&latest_first=true&limit=100&format=tree&after_token=TOKEN123';

    it('parses the observed URL (form-encoded, + for spaces) up to its made-up token', async () => {
      const response = await api.http().get(OBSERVED_URL).set(auth);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'invalid_token',
        msg: 'Invalid pagination token',
      });
    });

    it('answers the observed URL without the token, with its filters applied', async () => {
      const response = await api
        .http()
        .get(`/${OBSERVED_URL.replace('&after_token=TOKEN123', '')}`)
        .set(auth);
      expect(response.status).toBe(200);
      // Serverless (endpoint 19392) is filtered out by type.in = [instance, volume].
      expect(response.body).toEqual({
        success: true,
        count: 1,
        total: 1,
        next_token: null,
        results: [
          contractEntry({
            kind: 'volume',
            id: 11200,
            start: 1761955200,
            end: 1762128000,
            days: 1,
            amount: 0.1,
            metadata: { label: 'data' },
            items: [
              chargeItem('disk', 1762041600, 1762128000, '10.000 GB-days at $0.010/GB-day', 0.1),
            ],
          }),
        ],
      });
    });
  });

  describe('authentication and rate limit', () => {
    it('answers 403 without an Authorization header and 404 for an unknown key', async () => {
      const missing = await api
        .http()
        .get(`/api/v0/charges/?${clientQueryString({ select_filters: filters(0, 1) })}`);
      expect(missing.status).toBe(403);
      expect(missing.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      });
      const unknown = await get(
        { select_filters: filters(0, 1) },
        { Authorization: 'Bearer no-such-key' },
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'Invalid user key',
      });
    });

    it('answers 429 with the detail body and Retry-After to a second request within the 1.0 threshold', async () => {
      const limited = await startApi({ RATE_LIMITS: 'on' });
      try {
        const user = await createTestUser(limited);
        const url = `/api/v0/charges/?${clientQueryString({ select_filters: filters(day(0), day(3)) })}`;
        const first = await limited.http().get(url).set(user.auth);
        expect(first.status).toBe(200);
        const second = await limited.http().get(url).set(user.auth);
        expect(second.status).toBe(429);
        expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=1.0' });
        expect(second.headers['retry-after']).toBe('1');
        // Limits are per user: another user is served meanwhile.
        const other = await limited.http().get(url).set(auth);
        expect(other.status).toBe(200);
        // The threshold is 1.0 s: once it has passed the user is served again (the retries
        // until then are refused like the second request, and admit nothing).
        const later = await waitFor(
          () => limited.http().get(url).set(user.auth),
          (response) => response.status !== 429,
          { what: 'the 1.0 s threshold to pass', intervalMs: 100 },
        );
        expect(later.status).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });
});
