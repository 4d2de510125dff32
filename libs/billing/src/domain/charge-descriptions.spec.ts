import {
  contractDescription,
  formatRate,
  itemDescription,
  singularUnit,
  threeDecimals,
  wrapperDescription,
} from './charge-descriptions';

describe('charge descriptions', () => {
  it.each([
    ['96', '96.000'],
    ['14.2', '14.200'],
    ['0.0005', '0.001'],
    ['0.0004999', '0.000'],
    ['9.9995', '10.000'],
    ['-0.5', '-0.500'],
    ['-0.0004', '0.000'],
    ['123.456', '123.456'],
  ])('threeDecimals(%s) = %s', (input, expected) => {
    expect(threeDecimals(input)).toBe(expected);
  });

  it.each([
    ['0.389', '0.389'],
    ['0.5', '0.500'],
    ['0.005000', '0.005'],
    ['0.0045', '0.0045'],
    ['2', '2.000'],
    ['0.123456', '0.123456'],
  ])('formatRate(%s) = %s', (input, expected) => {
    expect(formatRate(input)).toBe(expected);
  });

  it('quotes rates per singular unit', () => {
    expect(singularUnit('hours')).toBe('hour');
    expect(singularUnit('GB-days')).toBe('GB-day');
    expect(singularUnit('GB')).toBe('GB');
  });

  it('describes each charge type as docs/billing.md shows', () => {
    expect(itemDescription({ type: 'gpu', quantity: '96.000', unit: 'hours', rate: '0.389' })).toBe(
      '96.000 hours at $0.389/hour',
    );
    expect(itemDescription({ type: 'disk', quantity: '120', unit: 'GB-days', rate: '0.005' })).toBe(
      '120.000 GB-days at $0.005/GB-day',
    );
    expect(itemDescription({ type: 'bwd', quantity: '14.2', unit: 'GB', rate: '0.01' })).toBe(
      '14.200 GB downloaded',
    );
    expect(itemDescription({ type: 'bwu', quantity: '3.1', unit: 'GB', rate: '0.01' })).toBe(
      '3.100 GB uploaded',
    );
  });

  it('describes contracts by charged days and wrappers by contracts', () => {
    expect(contractDescription('instance', 12345678, 4)).toBe('Instance 12345678 Charges - 4 days');
    expect(contractDescription('volume', 9, 1)).toBe('Volume 9 Charges - 1 day');
    expect(wrapperDescription('endpoint-19392', 3)).toBe('Endpoint 19392 Charges - 3 contracts');
    expect(wrapperDescription('workergroup-7', 1)).toBe('Workergroup 7 Charges - 1 contract');
  });
});
