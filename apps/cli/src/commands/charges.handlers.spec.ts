import { UsageError } from '../errors';
import { buildChargesQuery } from './charges.handlers';

const NOW = new Date('2025-11-10T00:00:00Z');

describe('charges query', () => {
  it('builds the public client parameters in order, with type aliases mapped and deduplicated', () => {
    const query = buildChargesQuery(
      {
        startDate: '2025-11-01',
        endDate: '2025-11-05',
        chargeType: ['i', 'instance', 'V', 's'],
        limit: 20,
        format: 'tree',
        latestFirst: true,
      },
      NOW,
      'NT1',
    );
    expect(Object.keys(query)).toEqual([
      'select_filters',
      'latest_first',
      'limit',
      'format',
      'after_token',
    ]);
    expect(query).toEqual({
      select_filters: {
        day: { gte: 1761955200, lte: 1762387199 },
        type: { in: ['instance', 'volume', 'serverless'] },
      },
      latest_first: 'true',
      limit: 20,
      format: 'tree',
      after_token: 'NT1',
    });
  });

  it('sends latest_first=false unless asked, and no type filter without -ct', () => {
    const query = buildChargesQuery({ limit: 5, format: 'table' }, NOW);
    expect(query.latest_first).toBe('false');
    expect(query.select_filters).toEqual({ day: { gte: 1762128000, lte: 1762732800 } });
    expect(query.after_token).toBeUndefined();
  });

  it('refuses an unknown charge type', () => {
    expect(() =>
      buildChargesQuery({ limit: 5, format: 'table', chargeType: ['gpu'] }, NOW),
    ).toThrow(UsageError);
  });
});
