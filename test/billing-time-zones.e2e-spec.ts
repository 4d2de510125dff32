import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { cleanBilling, exportAsText } from '@test/support/billing';

/**
 * `tz` on the statement and the export (docs/billing.md "Time zones"), over HTTP: a week
 * with a daylight-saving change in Europe (Berlin, spring and autumn) and one in the US (New
 * York): days start at the zone's midnight and last 23 or 25 hours, the range holds the
 * dates whose local midnight lies in it, and an unknown zone is a 400 naming it. Contract
 * ids 770000-770999 belong to this file.
 */
const DAY = 86_400;
const HOUR = 3600;
const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h) / 1000;
const IDS = [770_000, 770_999] as const;

interface Statement {
  periods: {
    start: number;
    end: number;
    groups: { key: string; amount: number }[];
    amount: number;
  }[];
  amount: number;
}

describe('time zones on the statement and the export', () => {
  let api: TestApi;
  let db: DataSource;
  let user: TestUser;

  const clean = () => cleanBilling(db, IDS, user ? [user.id] : []);

  /** One contract charged 1.000 a day (gpu) on each date from `first` for `days` days. */
  function daily(id: number, first: number, days: number) {
    return {
      id,
      user_id: user.id,
      kind: 'instance',
      start: first,
      end: first + days * DAY,
      label: null,
      template_id: null,
      endpoint_id: null,
      workergroup_id: null,
      charges: Array.from({ length: days }, (_, n) => ({
        day: first + n * DAY,
        type: 'gpu',
        quantity: '1',
        unit: 'hours',
        rate: '1',
        amount: '1',
      })),
    };
  }

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    user = await createTestUser(api);
    await clean();
    await loadFixtures(api, {
      contracts: [
        daily(770_001, utc(2026, 3, 1), 40), // 2026-03-01 .. 2026-04-09
        daily(770_002, utc(2026, 10, 19), 14), // 2026-10-19 .. 2026-11-01
      ],
    });
  });

  afterAll(async () => {
    await clean();
    await api?.close();
  });

  const filters = (gte: number, lte: number) =>
    encodeURIComponent(JSON.stringify({ day: { gte, lte } }));

  async function statement(query: string): Promise<Statement> {
    const response = await api.http().get(`/api/v0/charges/summary/?${query}`).set(user.auth);
    expect(response.status).toBe(200);
    return response.body as Statement;
  }

  const exported = (query: string) => exportAsText(api, user.auth, `${query}&format=ndjson`);

  it('Berlin, spring: seven local days, the Sunday of the change 23 hours long', async () => {
    // Monday 2026-03-23 00:00 CET .. Sunday 2026-03-29 00:00 CET (23:00 UTC the day before).
    const [gte, lte] = [utc(2026, 3, 22, 23), utc(2026, 3, 28, 23)];
    const byDay = await statement(
      `select_filters=${filters(gte, lte)}&period=day&tz=Europe/Berlin`,
    );
    expect(byDay.periods).toHaveLength(7);
    expect(byDay.periods[0].start).toBe(gte);
    const sunday = byDay.periods[6];
    expect([sunday.start, sunday.end, sunday.end - sunday.start]).toEqual([
      utc(2026, 3, 28, 23),
      utc(2026, 3, 29, 22),
      23 * HOUR,
    ]);
    for (const period of byDay.periods) expect(period.amount).toBe(1);
    for (let i = 1; i < 7; i++) expect(byDay.periods[i].start).toBe(byDay.periods[i - 1].end);
    expect(byDay.amount).toBe(7);

    const byWeek = await statement(
      `select_filters=${filters(gte, lte)}&period=week&tz=Europe/Berlin`,
    );
    expect(byWeek.periods).toEqual([
      {
        start: gte,
        end: utc(2026, 3, 29, 22),
        groups: [{ key: 'instance', amount: 7 }],
        amount: 7,
      },
    ]);
    // The same instants in UTC hold six days: the 29th starts after lte there.
    expect((await statement(`select_filters=${filters(gte, lte)}&period=day`)).amount).toBe(6);

    const file = await exported(`select_filters=${filters(gte, lte)}&tz=Europe/Berlin`);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="charges-2026-03-23-2026-03-29.ndjson"',
    );
    expect(
      (file.body as string)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).day),
    ).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
  });

  it('Berlin, autumn: the Sunday of the change is 25 hours long', async () => {
    const [gte, lte] = [utc(2026, 10, 18, 22), utc(2026, 10, 24, 22)]; // Mon 19 .. Sun 25, CEST
    const body = await statement(`select_filters=${filters(gte, lte)}&period=day&tz=Europe/Berlin`);
    const sunday = body.periods[6];
    expect([sunday.start, sunday.end - sunday.start]).toEqual([utc(2026, 10, 24, 22), 25 * HOUR]);
    expect(body.amount).toBe(7);
  });

  it('New York, spring: a week from Monday, its Sunday 23 hours long, months in the zone', async () => {
    // Monday 2026-03-02 00:00 EST (05:00 UTC) .. Sunday 2026-03-08 00:00 EST.
    const [gte, lte] = [utc(2026, 3, 2, 5), utc(2026, 3, 8, 5)];
    const body = await statement(
      `select_filters=${filters(gte, lte)}&period=day&tz=America/New_York`,
    );
    expect(body.periods.map((p) => (p.end - p.start) / HOUR)).toEqual([24, 24, 24, 24, 24, 24, 23]);
    expect(body.periods[6].end).toBe(utc(2026, 3, 9, 4));
    const month = await statement(
      `select_filters=${filters(utc(2026, 3, 1, 5), utc(2026, 4, 1, 4) - 1)}&period=month&tz=America/New_York`,
    );
    // March in New York: from 2026-03-01 00:00 EST to 2026-04-01 00:00 EDT (excluded).
    expect(month.periods).toEqual([
      {
        start: utc(2026, 3, 1, 5),
        end: utc(2026, 4, 1, 4),
        groups: [{ key: 'instance', amount: 31 }],
        amount: 31,
      },
    ]);
  });

  it('refuses an unknown zone with a 400 naming it, on both routes', async () => {
    const query = `select_filters=${filters(utc(2026, 3, 2), utc(2026, 3, 8))}&tz=Mars/Olympus`;
    for (const path of ['/api/v0/charges/summary/', '/api/v0/charges/export/']) {
      const refused = await api.http().get(`${path}?${query}`).set(user.auth);
      expect({ path, status: refused.status, body: refused.body }).toEqual({
        path,
        status: 400,
        body: {
          success: false,
          error: 'bad_request',
          msg: 'tz must be an IANA time zone name such as Europe/Berlin; "Mars/Olympus" is not one',
        },
      });
    }
  });
});
