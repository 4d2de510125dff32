import { parseContractFixture } from './contracts-fixture.loader';

const row = (extra: Record<string, unknown> = {}) => ({
  id: 1,
  user_id: 2,
  kind: 'instance',
  start: 0,
  end: 86_400,
  charges: [{ day: 0, type: 'gpu', quantity: '1', unit: 'hours', rate: '0.5', amount: '0.5' }],
  ...extra,
});

describe('parseContractFixture', () => {
  it('reads a contract and its exact decimal charges', () => {
    const { contract, charges } = parseContractFixture(row({ endpoint_id: 7 }));
    expect(contract).toMatchObject({ id: 1, userId: 2, endpointId: 7, workergroupId: null });
    expect(charges).toEqual([
      { day: 0, type: 'gpu', quantity: '1', unit: 'hours', rate: '0.5', amount: '0.5' },
    ]);
  });

  it.each([
    [{ endpoint_id: 0 }, 'contracts[1].endpoint_id must be positive'],
    [{ workergroup_id: -3 }, 'contracts[1].workergroup_id must be positive'],
    [{ end: -1 }, 'contracts[1].end must not be before start'],
    [{ charges: [{ day: 5, type: 'gpu' }] }, 'contracts[1].charges[0].day must be a UTC midnight'],
  ])('rejects %j', (extra, msg) => {
    expect(() => parseContractFixture(row(extra))).toThrow(msg);
  });
});
