import {
  ChargeEntry,
  describeSource,
  renderChargesCsv,
  renderChargesTable,
  renderChargesTree,
  renderFooter,
} from './charges.render';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

const instance: ChargeEntry = {
  type: 'instance',
  source: 'instance-123',
  description: 'Instance 123 Charges - 4 days',
  amount: 1.2345,
  start: day('2025-11-01'),
  end: day('2025-11-04'),
  metadata: { endpoint_id: 77 },
  items: [
    {
      type: 'gpu',
      source: null,
      description: '96.000 hours at $0.010/hour',
      amount: 0.96,
      start: day('2025-11-01'),
      end: day('2025-11-04'),
      metadata: {},
      items: [],
    },
  ],
};
const volume: ChargeEntry = {
  type: 'volume',
  source: 'volume-9',
  description: 'Volume 9, "big"',
  amount: 0.5,
  start: day('2025-11-02'),
  end: 0,
  metadata: { workergroup_id: 4 },
  items: [],
};
const wrapper: ChargeEntry = {
  type: 'serverless',
  source: 'endpoint-77',
  description: 'Endpoint 77 Charges - 3 contracts',
  amount: 2,
  start: day('2025-11-01'),
  end: day('2025-11-03'),
  metadata: { endpoint_id: 77 },
  items: [],
};

describe('charges rendering', () => {
  it('splits the source into a kind and an id', () => {
    expect(describeSource(instance)).toEqual({ kind: 'Instance', id: '123' });
    expect(describeSource(wrapper)).toEqual({ kind: 'Endpoint', id: '77' });
    expect(describeSource({ type: 'gpu', source: null })).toEqual({ kind: 'Gpu', id: '-' });
  });

  it('renders an aligned table with type, id, amount, start, end, endpoint, workergroup', () => {
    expect(renderChargesTable([instance, volume], false)).toBe(
      [
        'type      id   amount  start             end               endpoint  workergroup',
        'Instance  123  $1.234  2025-11-01 00:00  2025-11-04 00:00  77        -',
        'Volume    9    $0.500  2025-11-02 00:00  -                 -         4',
        '',
      ].join('\n'),
    );
  });

  it('adds the breakdown per charge type with --verbose', () => {
    const lines = renderChargesTable([instance], true).split('\n');
    expect(lines[0]).toMatch(/workergroup {2}description$/);
    expect(lines[2]).toMatch(
      /^ {2}gpu\s+\$0\.960\s+2025-11-01 00:00\s+2025-11-04 00:00\s+96\.000 hours at \$0\.010\/hour$/,
    );
  });

  it('renders a tree, with the items as children when verbose', () => {
    expect(renderChargesTree([wrapper, instance], true)).toBe(
      [
        'Endpoint 77  $2.000  2025-11-01 00:00 -> 2025-11-03 00:00  Endpoint 77 Charges - 3 contracts',
        'Instance 123  $1.234  2025-11-01 00:00 -> 2025-11-04 00:00  Instance 123 Charges - 4 days',
        '└─ gpu  $0.960  2025-11-01 00:00 -> 2025-11-04 00:00  96.000 hours at $0.010/hour',
        '',
      ].join('\n'),
    );
    expect(renderChargesTree([instance], false)).not.toContain('gpu');
  });

  it('renders RFC 4180 CSV with ISO instants and quoted fields', () => {
    expect(renderChargesCsv([volume, instance], true)).toBe(
      [
        'type,id,charge_type,amount,start,end,endpoint,workergroup,description',
        'volume,9,,0.500,2025-11-02T00:00:00Z,,,4,"Volume 9, ""big"""',
        'instance,123,,1.234,2025-11-01T00:00:00Z,2025-11-04T00:00:00Z,77,,Instance 123 Charges - 4 days',
        'instance,123,gpu,0.960,2025-11-01T00:00:00Z,2025-11-04T00:00:00Z,77,,96.000 hours at $0.010/hour',
        '',
      ].join('\r\n'),
    );
  });

  it('ends with "Showing N of M" and the next token when there is one', () => {
    expect(renderFooter({ count: 2, total: 2, next_token: null })).toBe('Showing 2 of 2\n');
    expect(renderFooter({ count: 1, total: 5, next_token: 'NT1' })).toBe(
      'Showing 1 of 5\nNext page token: NT1  (pass it with -t, or use --all)\n',
    );
    // A window that ended "now" must be spelled out for the token to match it later.
    expect(
      renderFooter({ count: 1, total: 5, next_token: 'NT1' }, { gte: 1000, lte: 605800 }),
    ).toBe(
      'Showing 1 of 5\nNext page token: NT1  ' +
        '(pass it with -t plus -s 1000 -e 605800 to stay in this window, or use --all)\n',
    );
  });
});
