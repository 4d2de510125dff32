import { contractEntry, wrapperEntry } from './charge-entries';
import { compareRows, ContractEntryRow, isAfter, ReportRow } from './charge-report';

const contractRow = (overrides: Partial<ContractEntryRow> = {}): ContractEntryRow => ({
  rowKind: 'contract',
  id: 5,
  kind: 'instance',
  source: 'instance-5',
  start: 100,
  end: 200,
  label: null,
  templateId: null,
  endpointId: null,
  workergroupId: null,
  ...overrides,
});

describe('charge entries', () => {
  it('builds a contract entry: charged days in the description, items ending with their last day', () => {
    const entry = contractEntry(contractRow({ label: 'x', templateId: 0 }), {
      days: 2,
      amount: '1.235',
      items: [
        {
          type: 'gpu',
          firstDay: 86_400,
          lastDay: 172_800,
          quantity: '2.000',
          unit: 'hours',
          rate: '0.6175',
          amount: '1.235',
        },
      ],
    });
    expect(entry).toEqual({
      entryKind: 'contract',
      kind: 'instance',
      id: 5,
      source: 'instance-5',
      start: 100,
      end: 200,
      description: 'Instance 5 Charges - 2 days',
      amount: '1.235',
      templateId: 0,
      label: 'x',
      endpointId: null,
      workergroupId: null,
      items: [
        {
          type: 'gpu',
          start: 86_400,
          end: 259_200,
          description: '2.000 hours at $0.6175/hour',
          amount: '1.235',
        },
      ],
    });
    expect(contractEntry(contractRow({ kind: 'volume' }), undefined)).toMatchObject({
      description: 'Volume 5 Charges - 0 days',
      amount: '0',
      items: [],
    });
  });

  it('builds a wrapper entry from its source', () => {
    expect(
      wrapperEntry(
        { rowKind: 'wrapper', source: 'workergroup-8', start: 1, end: 9, contracts: 1 },
        undefined,
      ),
    ).toEqual({
      entryKind: 'wrapper',
      source: 'workergroup-8',
      groupType: 'workergroup',
      groupId: 8,
      start: 1,
      end: 9,
      description: 'Workergroup 8 Charges - 1 contract',
      amount: '0',
    });
  });

  it('orders by end descending or start ascending, ties by source bytes', () => {
    const rows: ReportRow[] = [
      contractRow({ source: 'instance-9', start: 1, end: 5 }),
      contractRow({ source: 'instance-10', start: 1, end: 5 }),
      { rowKind: 'wrapper', source: 'endpoint-3', start: 0, end: 5, contracts: 2 },
      contractRow({ source: 'volume-1', start: 2, end: 7 }),
    ];
    expect([...rows].sort((a, b) => compareRows(a, b, true)).map((r) => r.source)).toEqual([
      'volume-1',
      'endpoint-3',
      'instance-10',
      'instance-9',
    ]);
    expect([...rows].sort((a, b) => compareRows(a, b, false)).map((r) => r.source)).toEqual([
      'endpoint-3',
      'instance-10',
      'instance-9',
      'volume-1',
    ]);
    expect(isAfter(rows[0], { value: 5, source: 'instance-10' }, true)).toBe(true);
    expect(isAfter(rows[1], { value: 5, source: 'instance-10' }, true)).toBe(false);
    expect(isAfter(rows[3], { value: 5, source: 'instance-10' }, true)).toBe(false);
  });
});
