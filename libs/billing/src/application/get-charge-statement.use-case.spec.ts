import { StatementQuery } from '../domain/charge-statement';
import { Contract } from '../domain/contract';
import { testCharge, testContract } from '../testing/billing-builders';
import { InMemoryChargeStatementReader } from '../testing/in-memory-charge-statement.reader';
import { GetChargeStatementUseCase } from './get-charge-statement.use-case';

const DAY = 86_400;
const utc = (m: number, d: number) => Date.UTC(2026, m - 1, d) / 1000;

const contract = (id: number, fields: Partial<Contract> = {}) =>
  testContract(id, { start: utc(1, 1), end: utc(3, 1), ...fields });

const gpu = (day: number, amount: string) => testCharge(day, 'gpu', '1', amount, amount);

function query(overrides: Partial<StatementQuery> = {}): StatementQuery {
  return {
    gte: utc(1, 26),
    lte: utc(2, 4),
    categories: null,
    period: 'month',
    groupBy: 'type',
    ...overrides,
  };
}

describe('GetChargeStatementUseCase', () => {
  let reader: InMemoryChargeStatementReader;
  let useCase: GetChargeStatementUseCase;

  beforeEach(() => {
    reader = new InMemoryChargeStatementReader();
    useCase = new GetChargeStatementUseCase(reader);
    reader.add(contract(1, { label: 'train' }), [
      gpu(utc(1, 26), '8.947'),
      gpu(utc(1, 27), '9.8608'),
    ]);
    reader.add(contract(2, { kind: 'volume' }), [gpu(utc(1, 31), '0.2'), gpu(utc(2, 3), '0.2')]);
    reader.add(contract(3, { endpointId: 501 }), [gpu(utc(2, 1), '12'), gpu(utc(2, 2), '0.0004')]);
    reader.add(contract(4, { userId: 2 }), [gpu(utc(2, 1), '100')]);
  });

  it("lays the caller's sums out on every calendar period, each figure rounded once", async () => {
    expect(await useCase.execute({ userId: 1, teamId: null }, query())).toEqual({
      periods: [
        {
          start: utc(1, 26),
          end: utc(2, 1),
          groups: [
            { key: 'instance', amount: 18.808 },
            { key: 'volume', amount: 0.2 },
          ],
          amount: 19.008,
        },
        {
          start: utc(2, 1),
          end: utc(2, 5),
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

  it('lists periods without charges, and groups by the key asked for', async () => {
    const statement = await useCase.execute(
      { userId: 1, teamId: null },
      query({ gte: utc(1, 30), lte: utc(2, 2), period: 'day', groupBy: 'label' }),
    );
    expect(statement.periods.map((period) => period.groups)).toEqual([
      [],
      [{ key: '(none)', amount: 0.2 }],
      [{ key: '(none)', amount: 12 }],
      [{ key: '(none)', amount: 0 }],
    ]);
  });

  it('answers a range without a UTC midnight with no periods, without reading', async () => {
    const statement = await useCase.execute(
      { userId: 1, teamId: null },
      query({ gte: utc(1, 26) + 1, lte: utc(1, 26) + 5 }),
    );
    expect(statement).toEqual({ periods: [], amount: 0 });
    expect(reader.asked).toHaveLength(0);
  });

  it('refuses a range beyond its limits before reading anything', async () => {
    await expect(
      useCase.execute(
        { userId: 1, teamId: null },
        query({ gte: 0, lte: 3660 * DAY, period: 'day' }),
      ),
    ).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('3660 periods'),
    });
    await expect(
      useCase.execute({ userId: 1, teamId: null }, query({ gte: -DAY })),
    ).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('1970-01-01'),
    });
    expect(reader.asked).toHaveLength(0);
  });
});
