import { presentContract, presentWrapper } from './charge-entries';
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
  it('presents metadata keys only when non-null', () => {
    expect(presentContract(contractRow(), undefined).metadata).toStrictEqual({});
    expect(
      presentContract(contractRow({ label: 'x', templateId: 0, workergroupId: 3 }), undefined)
        .metadata,
    ).toStrictEqual({ template_id: 0, label: 'x', workergroup_id: 3 });
  });

  it('presents items with the end of their last charged day and a null source', () => {
    const entry = presentContract(contractRow(), {
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
      start: 100,
      end: 200,
      type: 'instance',
      source: 'instance-5',
      description: 'Instance 5 Charges - 2 days',
      amount: 1.235,
      metadata: {},
      items: [
        {
          start: 86_400,
          end: 259_200,
          type: 'gpu',
          source: null,
          description: '2.000 hours at $0.6175/hour',
          amount: 1.235,
          metadata: {},
          items: [],
        },
      ],
    });
  });

  it('presents tree wrappers as serverless entries with empty items', () => {
    expect(
      presentWrapper(
        { rowKind: 'wrapper', source: 'endpoint-77', start: 1, end: 9, contracts: 3 },
        '4.500',
      ),
    ).toEqual({
      start: 1,
      end: 9,
      type: 'serverless',
      source: 'endpoint-77',
      description: 'Endpoint 77 Charges - 3 contracts',
      amount: 4.5,
      metadata: { endpoint_id: 77 },
      items: [],
    });
    expect(
      presentWrapper(
        { rowKind: 'wrapper', source: 'workergroup-8', start: 1, end: 9, contracts: 1 },
        undefined,
      ).metadata,
    ).toEqual({ workergroup_id: 8 });
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
