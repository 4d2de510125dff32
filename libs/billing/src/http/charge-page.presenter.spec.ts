import { contractEntry, wrapperEntry } from '../domain/charge-entries';
import { ContractEntryRow } from '../domain/charge-report';
import { presentChargeEntry, presentChargePage } from './charge-page.presenter';

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

describe('charge page presenter', () => {
  it('presents metadata keys only when non-null', () => {
    expect(presentChargeEntry(contractEntry(contractRow(), undefined)).metadata).toStrictEqual({});
    expect(
      presentChargeEntry(
        contractEntry(contractRow({ label: 'x', templateId: 0, workergroupId: 3 }), undefined),
      ).metadata,
    ).toStrictEqual({ template_id: 0, label: 'x', workergroup_id: 3 });
  });

  it('presents items with the end of their last charged day and a null source', () => {
    const entry = presentChargeEntry(
      contractEntry(contractRow(), {
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
      }),
    );
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
      presentChargeEntry(
        wrapperEntry(
          { rowKind: 'wrapper', source: 'endpoint-77', start: 1, end: 9, contracts: 3 },
          '4.500',
        ),
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
      presentChargeEntry(
        wrapperEntry(
          { rowKind: 'wrapper', source: 'workergroup-8', start: 1, end: 9, contracts: 1 },
          undefined,
        ),
      ).metadata,
    ).toEqual({ workergroup_id: 8 });
  });

  it('answers a page in the wire order of its fields, count from the entries', () => {
    const page = presentChargePage({
      total: 7,
      nextToken: 'next',
      entries: [
        wrapperEntry(
          { rowKind: 'wrapper', source: 'endpoint-1', start: 1, end: 2, contracts: 1 },
          '0.001',
        ),
      ],
    });
    expect(Object.keys(page)).toEqual(['success', 'count', 'total', 'next_token', 'results']);
    expect(page).toMatchObject({ success: true, count: 1, total: 7, next_token: 'next' });
    expect(page.results[0].amount).toBe(0.001);
    expect(presentChargePage({ total: 0, nextToken: null, entries: [] })).toEqual({
      success: true,
      count: 0,
      total: 0,
      next_token: null,
      results: [],
    });
  });
});
