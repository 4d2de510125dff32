import { testSecretKeeper } from '@app/platform/testing';
import { ChargeQuery } from '../domain/charge-report';
import { Contract } from '../domain/contract';
import { testCharge, testContract } from '../testing/billing-builders';
import { InMemoryChargeReportReader } from '../testing/in-memory-charge-report.reader';
import { GetChargesReportUseCase } from './get-charges-report.use-case';

const DAY = 86_400;
const USER = 1;

const contract = (id: number, fields: Partial<Contract> = {}) =>
  testContract(id, { userId: USER, start: id * 10, end: 1000 - id, ...fields });

const gpu = (day: number, amount: string) => testCharge(day, 'gpu', '1', amount, amount);

function query(overrides: Partial<ChargeQuery> = {}): ChargeQuery {
  return {
    gte: 0,
    lte: DAY,
    categories: null,
    format: 'table',
    latestFirst: true,
    limit: 100,
    afterToken: null,
    ...overrides,
  };
}

describe('GetChargesReportUseCase', () => {
  let reader: InMemoryChargeReportReader;
  let useCase: GetChargesReportUseCase;

  beforeEach(() => {
    reader = new InMemoryChargeReportReader();
    useCase = new GetChargesReportUseCase(reader, testSecretKeeper());
    for (let id = 1; id <= 9; id += 1) reader.add(contract(id), [gpu(0, '0.0005')]);
    reader.add(contract(10, { endpointId: 3 }), [gpu(DAY, '1.25')]);
    reader.add(contract(11, { endpointId: 3 }), [gpu(0, '1.2505')]);
    reader.add(contract(12, { workergroupId: 4 }), [gpu(0, '2')]);
    reader.add(contract(13, { userId: 2 }), [gpu(0, '2')]);
    reader.add(contract(14), [gpu(2 * DAY, '2')]);
  });

  async function walk(base: ChargeQuery): Promise<string[]> {
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const page = await useCase.execute(
        { userId: USER, teamId: null },
        { ...base, afterToken: token },
      );
      seen.push(...page.entries.map((entry) => entry.source));
      token = page.nextToken;
    } while (token !== null);
    return seen;
  }

  it('pages with a signed cursor: every entry once, no empty last page', async () => {
    const first = await useCase.execute({ userId: USER, teamId: null }, query({ limit: 4 }));
    expect(first.entries).toHaveLength(4);
    expect(first.total).toBe(12);
    expect(typeof first.nextToken).toBe('string');
    const all = await walk(query({ limit: 4 }));
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
    const exact = await useCase.execute({ userId: USER, teamId: null }, query({ limit: 12 }));
    expect(exact.nextToken).toBeNull();
  });

  it('groups serverless contracts into wrappers in tree format', async () => {
    const page = await useCase.execute({ userId: USER, teamId: null }, query({ format: 'tree' }));
    expect(page.total).toBe(11);
    const wrapper = page.entries.find((entry) => entry.source === 'endpoint-3');
    expect(wrapper).toEqual({
      entryKind: 'wrapper',
      source: 'endpoint-3',
      groupType: 'endpoint',
      groupId: 3,
      start: 100,
      end: 990,
      description: 'Endpoint 3 Charges - 2 contracts',
      amount: '2.501',
    });
    expect(page.entries.find((entry) => entry.source === 'workergroup-4')?.amount).toBe('2.000');
  });

  it('keeps a walk on its snapshot while contracts are added', async () => {
    const first = await useCase.execute({ userId: USER, teamId: null }, query({ limit: 5 }));
    reader.add(contract(50, { end: 5000 }), [gpu(0, '1')]);
    reader.add(contract(51, { end: 1 }), [gpu(0, '1')]);
    const second = await useCase.execute(
      { userId: USER, teamId: null },
      query({ limit: 100, afterToken: first.nextToken }),
    );
    expect(second.total).toBe(12);
    expect(second.entries.map((entry) => entry.source)).not.toContain('instance-51');
    expect(first.entries.length + second.entries.length).toBe(12);
  });

  it('counts the total on page 1 only and carries it in the signed cursor', async () => {
    const head = jest.spyOn(reader, 'head');
    const first = await useCase.execute({ userId: USER, teamId: null }, query({ limit: 5 }));
    const second = await useCase.execute(
      { userId: USER, teamId: null },
      query({ limit: 5, afterToken: first.nextToken }),
    );
    const third = await useCase.execute(
      { userId: USER, teamId: null },
      query({ limit: 5, afterToken: second.nextToken }),
    );
    expect(head).toHaveBeenCalledTimes(1);
    expect([first.total, second.total, third.total]).toEqual([12, 12, 12]);
    expect(third.entries).toHaveLength(2);
    expect(third.nextToken).toBeNull();
  });

  it('rounds the exact sum once', async () => {
    const page = await useCase.execute(
      { userId: USER, teamId: null },
      query({ categories: ['instance'], latestFirst: false }),
    );
    expect(page.entries[0]).toMatchObject({ source: 'instance-1', amount: '0.001' });
  });
});
