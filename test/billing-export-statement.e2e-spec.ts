import { request as httpRequest, IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { exportAsText, seedBulkCharges } from '@test/support/billing';
import { buildOpenApiDocument } from '../apps/api/src/bootstrap';

// This file's connections carry a name of their own (node-pg reads PGAPPNAME), so the
// export backends it counts are its own, not those of a file running beside it.
process.env.PGAPPNAME = 'export-statement-test';
/**
 * GET /api/v0/charges/export/ and /api/v0/charges/summary/ over HTTP. A hand-written
 * fixture checks the row format and a worked statement (docs/billing.md); random fixtures
 * (seeded) check that the statement's sums equal the export's billed amounts and the
 * report's entries over the same ranges, for every period and grouping. Contract ids
 * 880000-889999 belong to this file.
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 0, 26) / 1000; // Monday 2026-01-26
const day = (n: number) => D0 + n * DAY;
const FIXTURE_IDS = [880_000, 889_999];
const BULK_IDS = [889_000, 889_999];

type Row = Record<string, string | number | null>;

function filters(gte: number, lte: number, extra: Record<string, unknown> = {}): string {
  return encodeURIComponent(JSON.stringify({ day: { gte, lte }, ...extra }));
}

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

/** Exact decimal arithmetic on strings: micro-units (fixtures use at most 6 decimals). */
function micros(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  expect(fraction.length).toBeLessThanOrEqual(6);
  const value = BigInt(whole) * 1_000_000n + BigInt((fraction + '000000').slice(0, 6));
  return negative ? -value : value;
}

/** Rounded once to 3 decimals, half away from zero (PostgreSQL's round(numeric, 3)). */
function round3(value: bigint): number {
  const magnitude = value < 0n ? -value : value;
  const millis = (magnitude + 500n) / 1000n;
  return Number(value < 0n ? -millis : millis) / 1000;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LABELS = [null, 'train', 'a,b', 'say "hi"', 'two\r\nlines', 'infer'];
const TYPES = [
  ['gpu', 'hours'],
  ['disk', 'GB-days'],
  ['bwd', 'GB'],
  ['bwu', 'GB'],
] as const;

/** Random contracts of `userId` over days 0..69 (three months, ten weeks). */
function randomContracts(
  seed: number,
  userId: number,
  firstId: number,
  count: number,
  decimals: number,
) {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const amount = () => {
    const scale = 10 ** decimals;
    const units = Math.floor(random() * 40 * scale) - (random() < 0.1 ? 20 * scale : 0);
    const sign = units < 0 ? '-' : '';
    const abs = Math.abs(units);
    return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(decimals, '0')}`;
  };
  return Array.from({ length: count }, (_, index) => {
    const kind = random() < 0.25 ? 'volume' : 'instance';
    const shape = kind === 'volume' ? 'plain' : pick(['plain', 'endpoint', 'workergroup']);
    const first = Math.floor(random() * 65);
    const length = 1 + Math.floor(random() * 6);
    const charges = [];
    for (let d = first; d < Math.min(first + length, 70); d++) {
      if (random() < 0.15) continue; // holes in the charge days
      for (const [type, unit] of kind === 'volume' ? [TYPES[1]] : TYPES) {
        if (random() < 0.3 && type !== 'gpu') continue;
        charges.push({ day: day(d), type, quantity: '1.5', unit, rate: '0.25', amount: amount() });
      }
    }
    return {
      id: firstId + index,
      user_id: userId,
      kind,
      start: day(first) + 3600,
      end: day(first + length) - 3600,
      label: pick(LABELS),
      template_id: null,
      endpoint_id: shape === 'endpoint' ? 500 + Math.floor(random() * 3) : null,
      workergroup_id: shape === 'plain' ? null : 600 + Math.floor(random() * 4),
      charges,
    };
  });
}

function keyOf(line: Row, groupBy: string): string {
  switch (groupBy) {
    case 'type':
      return String(line.contract_type);
    case 'endpoint':
      return line.endpoint_id === null ? '(none)' : `endpoint-${line.endpoint_id}`;
    case 'workergroup':
      return line.workergroup_id === null ? '(none)' : `workergroup-${line.workergroup_id}`;
    default:
      return line.label === null ? '(none)' : String(line.label);
  }
}

const dayOf = (line: Row) => Date.parse(`${line.day}T00:00:00Z`) / 1000;

interface Statement {
  success: boolean;
  periods: {
    start: number;
    end: number;
    groups: { key: string; subkey?: string; amount: number }[];
    amount: number;
  }[];
  amount: number;
}

describe('GET /api/v0/charges/export/ and /api/v0/charges/summary/', () => {
  let api: TestApi;
  let db: DataSource;
  let main: TestUser;
  let other: TestUser;
  let exact: TestUser;
  let fine: TestUser;
  const users: number[] = [];

  async function clean(): Promise<void> {
    await db.query(`DELETE FROM billing_contracts WHERE id BETWEEN $1 AND $2`, FIXTURE_IDS);
    if (users.length === 0) return;
    await db.query(`DELETE FROM billing_report_days WHERE owner_key = ANY($1)`, [users]);
    await db.query(`DELETE FROM billing_statement_days WHERE owner_key = ANY($1)`, [users]);
  }

  beforeAll(async () => {
    // The streaming tests count the api pool's checked-out connections: no security-notice
    // sweep (every TFA_NOTICE_RETRY_SECONDS in the api's worker) may take one meanwhile.
    api = await startApi({ TFA_NOTICE_RETRY_SECONDS: '3600' });
    db = api.app.get(DataSource);
    await clean();
    [main, other, exact, fine] = await Promise.all([1, 2, 3, 4].map(() => createTestUser(api)));
    users.push(main.id, other.id, exact.id, fine.id);
    await loadFixtures(api, {
      contracts: [
        {
          id: 880_001,
          user_id: main.id,
          kind: 'instance',
          start: day(0) + 3600,
          end: day(2) + 7200,
          label: 'train, "fast"',
          template_id: 101,
          endpoint_id: null,
          workergroup_id: null,
          charges: [
            {
              day: day(0),
              type: 'gpu',
              quantity: '23',
              unit: 'hours',
              rate: '0.389',
              amount: '8.947',
            },
            {
              day: day(0),
              type: 'disk',
              quantity: '100',
              unit: 'GB-days',
              rate: '0.005',
              amount: '0.5',
            },
            {
              day: day(1),
              type: 'bwu',
              quantity: '3.1',
              unit: 'GB',
              rate: '0.008',
              amount: '0.0248',
            },
            {
              day: day(1),
              type: 'gpu',
              quantity: '24',
              unit: 'hours',
              rate: '0.389',
              amount: '9.336',
            },
          ],
        },
        {
          id: 880_002,
          user_id: main.id,
          kind: 'instance',
          start: day(6),
          end: day(8),
          label: null,
          template_id: null,
          endpoint_id: 501,
          workergroup_id: 601,
          charges: [
            {
              day: day(6),
              type: 'gpu',
              quantity: '24',
              unit: 'hours',
              rate: '0.5',
              amount: '12.0',
            },
            {
              day: day(7),
              type: 'gpu',
              quantity: '0.0008',
              unit: 'hours',
              rate: '0.5',
              amount: '0.0004',
            },
          ],
        },
        {
          id: 880_003,
          user_id: main.id,
          kind: 'volume',
          start: day(5),
          end: day(9),
          label: 'archive',
          template_id: null,
          endpoint_id: null,
          workergroup_id: null,
          charges: [
            {
              day: day(5),
              type: 'disk',
              quantity: '50',
              unit: 'GB-days',
              rate: '0.004',
              amount: '0.2',
            },
            {
              day: day(8),
              type: 'disk',
              quantity: '50',
              unit: 'GB-days',
              rate: '0.004',
              amount: '0.2',
            },
          ],
        },
        {
          id: 880_010,
          user_id: other.id,
          kind: 'instance',
          start: day(0),
          end: day(1),
          label: null,
          template_id: null,
          endpoint_id: null,
          workergroup_id: null,
          charges: [
            { day: day(0), type: 'gpu', quantity: '1', unit: 'hours', rate: '1', amount: '1' },
          ],
        },
        ...randomContracts(18, exact.id, 881_000, 60, 3),
        ...randomContracts(19, fine.id, 882_000, 60, 6),
      ],
    });
  });

  afterAll(async () => {
    await clean();
    await api.close();
  });

  const exportText = (user: TestUser, query: string) => exportAsText(api, user.auth, query);

  async function exportLines(user: TestUser, gte: number, lte: number): Promise<Row[]> {
    const response = await exportText(user, `select_filters=${filters(gte, lte)}&format=ndjson`);
    expect(response.status).toBe(200);
    return (response.body as string)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Row);
  }

  async function statement(user: TestUser, query: string): Promise<Statement> {
    const response = await api.http().get(`/api/v0/charges/summary/?${query}`).set(user.auth);
    expect(response.status).toBe(200);
    return response.body as Statement;
  }

  describe('export', () => {
    it('streams one CSV row per daily charge line, RFC 4180 quoted, exact amounts', async () => {
      const response = await exportText(main, `select_filters=${filters(day(0), day(9))}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="charges-2026-01-26-2026-02-04.csv"',
      );
      expect(response.headers['x-charge-lines']).toBe('8');
      const text = response.body as string;
      expect(text.endsWith('\r\n')).toBe(true);
      expect(parseCsv(text)).toEqual([
        [
          'contract_id',
          'contract_type',
          'label',
          'endpoint_id',
          'workergroup_id',
          'type',
          'day',
          'quantity',
          'unit',
          'rate',
          'amount',
          'billed_amount',
        ],
        [
          '880001',
          'instance',
          'train, "fast"',
          '',
          '',
          'gpu',
          '2026-01-26',
          '23',
          'hours',
          '0.389',
          '8.947',
          '8.947',
        ],
        [
          '880001',
          'instance',
          'train, "fast"',
          '',
          '',
          'disk',
          '2026-01-26',
          '100',
          'GB-days',
          '0.005',
          '0.5',
          '0.500',
        ],
        [
          '880001',
          'instance',
          'train, "fast"',
          '',
          '',
          'gpu',
          '2026-01-27',
          '24',
          'hours',
          '0.389',
          '9.336',
          '9.336',
        ],
        [
          '880001',
          'instance',
          'train, "fast"',
          '',
          '',
          'bwu',
          '2026-01-27',
          '3.1',
          'GB',
          '0.008',
          '0.0248',
          '0.025',
        ],
        [
          '880003',
          'volume',
          'archive',
          '',
          '',
          'disk',
          '2026-01-31',
          '50',
          'GB-days',
          '0.004',
          '0.2',
          '0.200',
        ],
        [
          '880003',
          'volume',
          'archive',
          '',
          '',
          'disk',
          '2026-02-03',
          '50',
          'GB-days',
          '0.004',
          '0.2',
          '0.200',
        ],
        [
          '880002',
          'serverless',
          '',
          '501',
          '601',
          'gpu',
          '2026-02-01',
          '24',
          'hours',
          '0.5',
          '12.0',
          '12.000',
        ],
        [
          '880002',
          'serverless',
          '',
          '501',
          '601',
          'gpu',
          '2026-02-02',
          '0.0008',
          'hours',
          '0.5',
          '0.0004',
          '0.000',
        ],
      ]);
      expect(text).toContain('"train, ""fast"""');
    });

    it('serves NDJSON with the same rows, the type filter and the day range applied', async () => {
      const response = await exportText(
        main,
        `select_filters=${filters(day(1), day(6), { type: { in: ['instance', 'serverless'] } })}&format=ndjson`,
      );
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="charges-2026-01-27-2026-02-01.ndjson"',
      );
      const lines = (response.body as string)
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toEqual([
        {
          contract_id: 880001,
          contract_type: 'instance',
          label: 'train, "fast"',
          endpoint_id: null,
          workergroup_id: null,
          type: 'gpu',
          day: '2026-01-27',
          quantity: '24',
          unit: 'hours',
          rate: '0.389',
          amount: '9.336',
          billed_amount: '9.336',
        },
        {
          contract_id: 880001,
          contract_type: 'instance',
          label: 'train, "fast"',
          endpoint_id: null,
          workergroup_id: null,
          type: 'bwu',
          day: '2026-01-27',
          quantity: '3.1',
          unit: 'GB',
          rate: '0.008',
          amount: '0.0248',
          billed_amount: '0.025',
        },
        {
          contract_id: 880002,
          contract_type: 'serverless',
          label: null,
          endpoint_id: 501,
          workergroup_id: 601,
          type: 'gpu',
          day: '2026-02-01',
          quantity: '24',
          unit: 'hours',
          rate: '0.5',
          amount: '12.0',
          billed_amount: '12.000',
        },
      ]);
    });

    it("exports only the caller's charges, and just a header when there are none", async () => {
      const lines = await exportLines(other, day(0), day(9));
      expect(lines.map((line) => line.contract_id)).toEqual([880010]);
      const empty = await exportText(main, `select_filters=${filters(day(40), day(41))}`);
      expect(empty.body).toBe(
        'contract_id,contract_type,label,endpoint_id,workergroup_id,type,day,quantity,unit,rate,amount,billed_amount\r\n',
      );
    });

    it('neutralises text cells a spreadsheet would run as formulas, keeps amounts exact, offers a BOM', async () => {
      const spreadsheet = await createTestUser(api);
      users.push(spreadsheet.id);
      const labels = ['=HYPERLINK("http://evil.test","x")', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx'];
      await loadFixtures(api, {
        contracts: labels.map((label, index) => ({
          id: 880_020 + index,
          user_id: spreadsheet.id,
          kind: 'volume',
          start: day(0) + index,
          end: day(1),
          label,
          template_id: null,
          endpoint_id: null,
          workergroup_id: null,
          charges: [
            {
              day: day(0),
              type: 'disk',
              quantity: '-1',
              unit: '=unit',
              rate: '0.5',
              amount: '-0.5',
            },
          ],
        })),
      });
      const query = `select_filters=${filters(day(0), day(0))}`;
      const neutral = await exportText(spreadsheet, query);
      expect(neutral.status).toBe(200);
      const rows = parseCsv(neutral.body as string).slice(1);
      expect(rows.map((row) => row[2])).toEqual(labels.map((label) => `'${label}`));
      for (const row of rows)
        expect(row.slice(7)).toEqual(['-1', "'=unit", '0.5', '-0.5', '-0.500']);

      const raw = await exportText(spreadsheet, `${query}&escape_formulas=false`);
      expect(
        parseCsv(raw.body as string)
          .slice(1)
          .map((row) => row[2]),
      ).toEqual(labels);
      const json = await exportLines(spreadsheet, day(0), day(0));
      expect(json.map((line) => line.label)).toEqual(labels);

      const bom = await api
        .http()
        .get(`/api/v0/charges/export/?${query}&bom=true`)
        .set(spreadsheet.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect((bom.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect((bom.body as Buffer).subarray(3).toString()).toBe(neutral.body);

      for (const [extra, msg] of [
        ['&bom=yes', 'bom must be true or false'],
        ['&escape_formulas=0', 'escape_formulas must be true or false'],
        ['&format=ndjson&bom=true', 'bom applies to format=csv only'],
        [
          '&format=ndjson&escape_formulas=false&bom=false',
          'escape_formulas and bom apply to format=csv only',
        ],
      ]) {
        const refused = await api
          .http()
          .get(`/api/v0/charges/export/?${query}${extra}`)
          .set(spreadsheet.auth);
        expect({ extra, status: refused.status, body: refused.body }).toEqual({
          extra,
          status: 400,
          body: { success: false, error: 'bad_request', msg },
        });
      }
    });

    it('names a range inside one day for that day, and the report counts what it shows there', async () => {
      // 01:00-02:00 of Monday 2026-01-26: no midnight, so no charge line; contract 880001 is
      // charged on the 26th and the 27th, on both sides of the range.
      const [gte, lte] = [day(0) + 3600, day(0) + 7200];
      const file = await exportText(main, `select_filters=${filters(gte, lte)}`);
      expect(file.headers['content-disposition']).toBe(
        'attachment; filename="charges-2026-01-26-2026-01-26.csv"',
      );
      expect(parseCsv(file.body as string)).toHaveLength(1);
      for (const format of ['table', 'tree']) {
        const page = await api
          .http()
          .get(`/api/v0/charges/?select_filters=${filters(gte, lte)}&format=${format}`)
          .set(main.auth);
        expect(page.body).toEqual({
          success: true,
          count: 0,
          total: 0,
          next_token: null,
          results: [],
        });
      }
    });

    it('validates like the report, with the same messages', async () => {
      const missing = await api.http().get('/api/v0/charges/export/').set(main.auth);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        success: false,
        msg: "Must provide both 'day' gte and lte filters for instance charges",
      });
      const reversed = await api
        .http()
        .get(`/api/v0/charges/export/?select_filters=${filters(day(2), day(1))}`)
        .set(main.auth);
      expect(reversed.status).toBe(400);
      expect(reversed.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'select_filters.day.gte must not be greater than select_filters.day.lte',
      });
      const format = await api
        .http()
        .get(`/api/v0/charges/export/?select_filters=${filters(day(0), day(1))}&format=xlsx`)
        .set(main.auth);
      expect(format.status).toBe(400);
      expect(format.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: "format must be 'csv' or 'ndjson'",
      });
      const anonymous = await api
        .http()
        .get(`/api/v0/charges/export/?select_filters=${filters(day(0), day(1))}`);
      expect(anonymous.status).toBe(403);
    });
  });

  describe('statement', () => {
    it('sums billed amounts per month and type (worked example of docs/billing.md)', async () => {
      const body = await statement(
        main,
        `select_filters=${filters(day(0), day(9))}&period=month&group_by=type`,
      );
      expect(body).toEqual({
        success: true,
        periods: [
          {
            start: day(0),
            end: Date.UTC(2026, 1, 1) / 1000,
            groups: [
              { key: 'instance', amount: 18.808 },
              { key: 'volume', amount: 0.2 },
            ],
            amount: 19.008,
          },
          {
            start: Date.UTC(2026, 1, 1) / 1000,
            end: day(10),
            groups: [
              { key: 'serverless', amount: 12 },
              { key: 'volume', amount: 0.2 },
            ],
            amount: 12.2,
          },
        ],
        amount: 31.208,
      });
    });

    it('groups by two dimensions when one is type: (key, subkey) pairs', async () => {
      const body = await statement(
        main,
        `select_filters=${filters(day(0), day(9))}&period=month&group_by=endpoint,type`,
      );
      expect(body.periods.map((p) => p.groups)).toEqual([
        [
          { key: '(none)', subkey: 'instance', amount: 18.808 },
          { key: '(none)', subkey: 'volume', amount: 0.2 },
        ],
        [
          { key: '(none)', subkey: 'volume', amount: 0.2 },
          { key: 'endpoint-501', subkey: 'serverless', amount: 12 },
        ],
      ]);
      expect(body.amount).toBe(31.208);
      for (const [groupBy, msg] of [
        [
          'endpoint,label',
          'group_by takes two dimensions when one of them is type (endpoint,type; type,label)',
        ],
        [
          'type,type',
          'group_by takes two dimensions when one of them is type (endpoint,type; type,label)',
        ],
        [
          'type,label,endpoint',
          "group_by must be 'type', 'endpoint', 'workergroup' or 'label', or two of them joined by a comma",
        ],
      ]) {
        const refused = await api
          .http()
          .get(
            `/api/v0/charges/summary/?select_filters=${filters(day(0), day(9))}&group_by=${groupBy}`,
          )
          .set(main.auth);
        expect({ groupBy, status: refused.status, body: refused.body }).toEqual({
          groupBy,
          status: 400,
          body: { success: false, error: 'bad_request', msg },
        });
      }
    });

    it('starts weeks on Monday, lists empty periods and groups by label', async () => {
      const body = await statement(
        main,
        `select_filters=${filters(day(-3) + 5, day(13) + 5)}&period=week&group_by=label`,
      );
      expect(body.periods.map((p) => [p.start, p.end])).toEqual([
        [day(-2), day(0)],
        [day(0), day(7)],
        [day(7), day(14)],
      ]);
      expect(body.periods[0]).toEqual({ start: day(-2), end: day(0), groups: [], amount: 0 });
      expect(body.periods[1].groups).toEqual([
        { key: '(none)', amount: 12 },
        { key: 'archive', amount: 0.2 },
        { key: 'train, "fast"', amount: 18.808 },
      ]);
      expect(body.periods[2].groups).toEqual([
        { key: '(none)', amount: 0 },
        { key: 'archive', amount: 0.2 },
      ]);
      expect(body.amount).toBe(31.208);
    });

    it('validates select_filters like the report, and period and group_by', async () => {
      const missing = await api.http().get('/api/v0/charges/summary/').set(main.auth);
      expect(missing.status).toBe(400);
      expect(missing.body.msg).toBe(
        "Must provide both 'day' gte and lte filters for instance charges",
      );
      const type = await api
        .http()
        .get(`/api/v0/charges/summary/?select_filters=${filters(0, 1, { type: { in: [] } })}`)
        .set(main.auth);
      expect(type.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: 'select_filters.type.in must list at least one of instance, volume, serverless',
      });
      const period = await api
        .http()
        .get(`/api/v0/charges/summary/?select_filters=${filters(0, 1)}&period=year`)
        .set(main.auth);
      expect(period.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: "period must be 'day', 'week' or 'month'",
      });
      const groupBy = await api
        .http()
        .get(`/api/v0/charges/summary/?select_filters=${filters(0, 1)}&group_by=template`)
        .set(main.auth);
      expect(groupBy.body.msg).toBe(
        "group_by must be 'type', 'endpoint', 'workergroup' or 'label', or two of them joined by a comma",
      );
      const tooMany = await api
        .http()
        .get(`/api/v0/charges/summary/?select_filters=${filters(0, 20_000 * DAY)}&period=day`)
        .set(main.auth);
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.msg).toBe(
        'the range spans more than 3660 periods of a day; choose a longer period or a shorter range',
      );
      const huge = await api
        .http()
        .get(`/api/v0/charges/summary/?select_filters=${filters(0, Number.MAX_SAFE_INTEGER)}`)
        .set(main.auth);
      expect(huge.status).toBe(400);
    });

    it.each([
      ['3-decimal', () => exact],
      ['6-decimal', () => fine],
    ])('equals the export and the report on random fixtures (%s amounts)', async (_name, user) => {
      const ranges: [number, number][] = [
        [day(0), day(69)],
        [day(3) + 7_000, day(40) + 100],
        [day(-10), day(20)],
        [day(31), day(31)],
      ];
      for (const [gte, lte] of ranges) {
        const lines = await exportLines(user(), gte, lte);
        // Every figure is a sum of the lines' billed amounts (docs/billing.md "Billed
        // amounts"), each the line's exact amount rounded once.
        for (const line of lines)
          expect(micros(String(line.billed_amount))).toBe(
            BigInt(Math.round(round3(micros(String(line.amount))) * 1000)) * 1000n,
          );
        const billed = (list: Row[]) =>
          list.reduce((sum, line) => sum + micros(String(line.billed_amount)), 0n);
        const exported = billed(lines);
        for (const period of ['day', 'week', 'month']) {
          for (const groupBy of ['type', 'endpoint', 'workergroup', 'label']) {
            const body = await statement(
              user(),
              `select_filters=${filters(gte, lte)}&period=${period}&group_by=${groupBy}`,
            );
            expect(body.amount).toBe(round3(exported));
            for (const p of body.periods) {
              const inPeriod = lines.filter((l) => dayOf(l) >= p.start && dayOf(l) < p.end);
              expect(p.amount).toBe(round3(billed(inPeriod)));
              const keys = [...new Set(inPeriod.map((l) => keyOf(l, groupBy)))].sort((a, b) =>
                a < b ? -1 : a > b ? 1 : 0,
              );
              expect(p.groups.map((g) => g.key)).toEqual(keys);
              for (const group of p.groups) {
                const sum = billed(inPeriod.filter((l) => keyOf(l, groupBy) === group.key));
                expect(group.amount).toBe(round3(sum));
              }
            }
            const days = body.periods;
            for (let i = 1; i < days.length; i++) expect(days[i].start).toBe(days[i - 1].end);
          }
        }
        // The report's entries over the same range: sums of billed amounts too, so they
        // add up to the statement's total whatever the decimals.
        let token: string | null = null;
        let reportMillis = 0;
        do {
          const page = await api
            .http()
            .get(
              `/api/v0/charges/?select_filters=${filters(gte, lte)}&limit=500${token ? `&after_token=${encodeURIComponent(token)}` : ''}`,
            )
            .set(user().auth);
          expect(page.status).toBe(200);
          for (const entry of page.body.results as { amount: number }[])
            reportMillis += Math.round(entry.amount * 1000);
          token = page.body.next_token as string | null;
        } while (token);
        expect(reportMillis / 1000).toBe(round3(exported));
      }
    });
  });

  describe('streaming', () => {
    let bulk: TestUser;

    beforeAll(async () => {
      bulk = await createTestUser(api);
      users.push(bulk.id);
      // 1,000 contracts x 90 days x 2 lines: about 13 MB of CSV, more than socket buffers hold.
      await seedBulkCharges(db, {
        userId: bulk.id,
        firstId: BULK_IDS[0],
        contracts: 1000,
        firstDay: day(0),
        label: 'bulk',
      });
    });

    const pool = () => (db.driver as PostgresDriver).master as Pool;
    const checkedOut = () => pool().totalCount - pool().idleCount;

    async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
      const deadline = Date.now() + 15_000;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    async function exportBackends(): Promise<number[]> {
      const rows = (await db.query(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND query LIKE '%charges-export%' AND state <> 'idle'
          AND application_name = current_setting('application_name')`,
      )) as { pid: number }[];
      return rows.map((row) => row.pid);
    }

    /**
     * Earlier requests give their connections back first: an export's stream can release
     * its connection a moment after its client read the last byte.
     */
    const idlePool = () => waitFor(async () => checkedOut() === 0, 'an idle pool');

    it('holds the cursor while the client does not read, and releases it at once on disconnect', async () => {
      await idlePool();
      const url = new URL(
        `${api.url}/api/v0/charges/export/?select_filters=${filters(day(0), day(89))}`,
      );
      let received = 0;
      const request = httpRequest(url, { headers: bulk.auth });
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        request.on('response', resolve).on('error', reject).end();
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-charge-lines']).toBe('180000');
      // Read one chunk, then stop reading: backpressure leaves the cursor open, mid-range.
      await new Promise<void>((resolve) =>
        response.once('data', (chunk: Buffer) => {
          received += chunk.length;
          response.pause();
          resolve();
        }),
      );
      let pids: number[] = [];
      try {
        await waitFor(async () => (pids = await exportBackends()).length === 1, 'the cursor');
        // The cursor's connection alone: waited for, since a background task of the api
        // (a sweep, a flush of last-used times) may hold another one for a moment.
        await waitFor(async () => checkedOut() === 1, 'the cursor alone checked out');
        expect(received).toBeLessThan(13_000_000);
      } finally {
        // Even after a failure: a cursor left open would take the next test's pool.
        request.on('error', () => undefined);
        request.destroy();
      }
      await waitFor(async () => checkedOut() === 0, 'the pool slot');
      await waitFor(async () => {
        const rows = (await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE pid = $1`,
          pids,
        )) as unknown[];
        return rows.length === 0;
      }, 'the backend to end');
    });

    it('returns the connection to the pool after a whole export', async () => {
      await idlePool();
      const response = await exportText(bulk, `select_filters=${filters(day(0), day(89))}`);
      expect(response.status).toBe(200);
      const text = response.body as string;
      expect(text.split('\r\n').length - 2).toBe(180_000);
      await waitFor(async () => checkedOut() === 0, 'the pool slot');
      expect(await exportBackends()).toEqual([]);
    });
  });

  it('documents the export as text/csv or NDJSON and the statement as JSON', () => {
    const document = buildOpenApiDocument(api.app) as unknown as {
      paths: Record<string, { get: { responses: Record<string, { content?: object }> } }>;
    };
    const exported = document.paths['/api/v0/charges/export'].get.responses['200'].content;
    expect(Object.keys(exported ?? {}).sort()).toEqual(['application/x-ndjson', 'text/csv']);
    const summary = document.paths['/api/v0/charges/summary'].get.responses['200'].content;
    expect(Object.keys(summary ?? {})).toEqual(['application/json']);
  });

  it('limits exports to one per 10 s and statements to one per second, with the 429 body', async () => {
    const limited = await startApi({ RATE_LIMITS: 'on' });
    try {
      const user = await createTestUser(limited);
      const query = `select_filters=${filters(day(0), day(3))}`;
      const first = await limited.http().get(`/api/v0/charges/export/?${query}`).set(user.auth);
      expect(first.status).toBe(200);
      const second = await limited.http().get(`/api/v0/charges/export/?${query}`).set(user.auth);
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=10.0' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(9);
      // Buckets are separate: the statement and the report are still served.
      const summary = await limited.http().get(`/api/v0/charges/summary/?${query}`).set(user.auth);
      expect(summary.status).toBe(200);
      const again = await limited.http().get(`/api/v0/charges/summary/?${query}`).set(user.auth);
      expect(again.status).toBe(429);
      expect(again.body).toEqual({ detail: 'API requests too frequent endpoint threshold=1.0' });
      const report = await limited.http().get(`/api/v0/charges/?${query}`).set(user.auth);
      expect(report.status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
