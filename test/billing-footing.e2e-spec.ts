import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { cleanBilling, exportAsText } from '@test/support/billing';

/**
 * Footing (docs/billing.md "Billed amounts"), a property over random charges against the
 * real api and PostgreSQL: amounts of up to 20 decimals, credits among them; ranges whose
 * bounds cut days; every type filter, format, order, period and grouping. For each case the
 * four figures a person adds up are one number: the statement's total, the sum of its
 * periods (each the sum of its groups), the sum of the report's entries over a whole walk of
 * the same range and filters, and the sum of the export's billed amounts; each billed amount
 * is its line's exact amount rounded once to 3 decimals, half away from zero, and each report
 * entry still has at most 3 decimals. Contract ids 760000-769999 belong to this file.
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 2, 2) / 1000; // Monday 2026-03-02
const day = (n: number) => D0 + n * DAY;
const IDS = [760_000, 769_999] as const;
const CATEGORIES = ['instance', 'volume', 'serverless'] as const;
const TYPES = ['gpu', 'disk', 'bwd', 'bwu'] as const;
const LABELS = [null, 'train', 'infer'];

/** Exact decimal strings as (units, scale) pairs. */
function parse(decimal: string): { units: bigint; scale: number } {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const units = BigInt(whole + fraction);
  return { units: negative ? -units : units, scale: fraction.length };
}

/** Thousandths of a decimal string that has at most 3 decimals. */
function millis(decimal: string | number): bigint {
  const { units, scale } = parse(String(decimal));
  expect(scale).toBeLessThanOrEqual(3);
  return units * 10n ** BigInt(3 - scale);
}

/** Thousandths of a decimal string rounded half away from zero (PostgreSQL's round(x, 3)). */
function roundedMillis(decimal: string): bigint {
  const { units, scale } = parse(decimal);
  if (scale <= 3) return units * 10n ** BigInt(3 - scale);
  const divisor = 10n ** BigInt(scale - 3);
  const magnitude = units < 0n ? -units : units;
  const rounded = (magnitude * 2n + divisor) / (2n * divisor);
  return units < 0n ? -rounded : rounded;
}

const amountArb = fc
  .tuple(fc.bigInt({ min: -200_000_000n, max: 4_000_000_000n }), fc.integer({ min: 0, max: 20 }))
  .map(([units, scale]) => {
    const negative = units < 0n;
    const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
    const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return `${negative ? '-' : ''}${text}`;
  });

const contractArb = fc.record({
  kind: fc.constantFrom('instance', 'volume'),
  shape: fc.constantFrom('plain', 'endpoint', 'workergroup', 'both'),
  label: fc.constantFrom(...LABELS),
  first: fc.integer({ min: 0, max: 40 }),
  length: fc.integer({ min: 1, max: 9 }),
  // Per day, the types charged and their amounts; an empty day is a hole.
  days: fc.array(fc.subarray([...TYPES], { minLength: 0 }), { minLength: 9, maxLength: 9 }),
  amounts: fc.array(amountArb, { minLength: 36, maxLength: 36 }),
  endpoint: fc.integer({ min: 501, max: 503 }),
  workergroup: fc.integer({ min: 601, max: 603 }),
});

const queryArb = fc.record({
  from: fc.integer({ min: -2, max: 45 }),
  span: fc.integer({ min: 0, max: 50 }),
  gteCut: fc.integer({ min: 0, max: DAY - 1 }),
  lteCut: fc.integer({ min: 0, max: DAY - 1 }),
  categories: fc.option(fc.subarray([...CATEGORIES], { minLength: 1 }), { nil: null }),
  format: fc.constantFrom('table', 'tree'),
  latestFirst: fc.boolean(),
  limit: fc.integer({ min: 1, max: 40 }),
  period: fc.constantFrom('day', 'week', 'month'),
  groupBy: fc.constantFrom(
    'type',
    'endpoint',
    'workergroup',
    'label',
    'endpoint,type',
    'type,label',
    'workergroup,type',
  ),
});

type Line = Record<string, string | number | null>;

describe('billed amounts foot: statement, its periods, the report walk and the export', () => {
  let api: TestApi;
  let db: DataSource;
  const users: number[] = [];
  let nextId = IDS[0];

  const clean = () => cleanBilling(db, IDS, users);

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    await clean();
  });

  afterAll(async () => {
    await clean();
    await api?.close();
  });

  const selectFilters = (gte: number, lte: number, categories: readonly string[] | null): string =>
    encodeURIComponent(
      JSON.stringify({ day: { gte, lte }, ...(categories ? { type: { in: categories } } : {}) }),
    );

  async function get(user: TestUser, path: string) {
    const response = await api.http().get(path).set(user.auth);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return response;
  }

  it('every figure is the sum of the billed amounts, over random charges and queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(contractArb, { minLength: 1, maxLength: 12 }),
        fc.array(queryArb, { minLength: 3, maxLength: 3 }),
        async (contracts, queries) => {
          const user = await createTestUser(api);
          users.push(user.id);
          const fixtures = contracts.map((c, index) => {
            const charges = [];
            for (let d = 0; d < c.length; d++) {
              const types = c.kind === 'volume' ? c.days[d].filter((t) => t === 'disk') : c.days[d];
              for (const type of types) {
                const amount = c.amounts[d * 4 + TYPES.indexOf(type)];
                charges.push({
                  day: day(c.first + d),
                  type,
                  quantity: '1',
                  unit: 'u',
                  rate: '1',
                  amount,
                });
              }
            }
            const serverless = c.kind === 'instance' && c.shape !== 'plain';
            return {
              id: nextId++,
              user_id: user.id,
              kind: c.kind,
              start: day(c.first) + 600 + index,
              end: day(c.first + c.length) - 600,
              label: c.label,
              template_id: null,
              endpoint_id: serverless && c.shape !== 'workergroup' ? c.endpoint : null,
              workergroup_id: serverless && c.shape !== 'endpoint' ? c.workergroup : null,
              charges,
            };
          });
          await loadFixtures(api, { contracts: fixtures });

          for (const q of queries) {
            const gte = day(q.from) + q.gteCut;
            const lte = Math.max(gte, day(q.from + q.span) + q.lteCut);
            const filters = selectFilters(gte, lte, q.categories);

            const exported = await exportAsText(
              api,
              user.auth,
              `select_filters=${filters}&format=ndjson`,
            );
            expect(exported.status).toBe(200);
            const lines = (exported.body as string)
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => JSON.parse(line) as Line);
            let exportTotal = 0n;
            for (const line of lines) {
              const billed = millis(String(line.billed_amount));
              expect({ amount: line.amount, billed }).toEqual({
                amount: line.amount,
                billed: roundedMillis(String(line.amount)),
              });
              exportTotal += billed;
            }

            const statement = (
              await get(
                user,
                `/api/v0/charges/summary/?select_filters=${filters}&period=${q.period}&group_by=${q.groupBy}`,
              )
            ).body as {
              periods: { groups: { key: string; amount: number }[]; amount: number }[];
              amount: number;
            };
            let periodsTotal = 0n;
            for (const period of statement.periods) {
              const groups = period.groups.reduce((sum, g) => sum + millis(g.amount), 0n);
              expect(groups).toBe(millis(period.amount));
              periodsTotal += millis(period.amount);
            }

            let reportTotal = 0n;
            let walked = 0;
            let total: number | null = null;
            let token: string | null = null;
            do {
              const page = (
                await get(
                  user,
                  `/api/v0/charges/?select_filters=${filters}&format=${q.format}` +
                    `&latest_first=${q.latestFirst}&limit=${q.limit}` +
                    (token ? `&after_token=${encodeURIComponent(token)}` : ''),
                )
              ).body as {
                count: number;
                total: number;
                next_token: string | null;
                results: { amount: number }[];
              };
              expect(page.count).toBe(page.results.length);
              total ??= page.total;
              walked += page.results.length;
              for (const entry of page.results) reportTotal += millis(entry.amount);
              token = page.next_token;
            } while (token);
            expect(walked).toBe(total);

            expect({
              statement: millis(statement.amount),
              periods: periodsTotal,
              report: reportTotal,
            }).toEqual({ statement: exportTotal, periods: exportTotal, report: exportTotal });
          }
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
  });
});
