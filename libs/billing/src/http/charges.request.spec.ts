import { DomainError } from '@app/platform';
import { chargesPagePath } from '@bench/public-client-paths';
import { DAY_RANGE_REQUIRED_MSG } from '../domain/errors';
import { parseChargeQuery } from './charges.request';

const day = (gte: unknown, lte: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ day: { gte, lte }, ...extra });

function failure(query: Record<string, unknown>): DomainError {
  try {
    parseChargeQuery(query);
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected a failure');
}

describe('parseChargeQuery', () => {
  it('reads the defaults: table, latest first, 100 per page, no token', () => {
    expect(parseChargeQuery({ select_filters: day(10, 20) })).toEqual({
      gte: 10,
      lte: 20,
      categories: null,
      format: 'table',
      latestFirst: true,
      limit: 100,
      afterToken: null,
    });
  });

  it('reads the parameters exactly as the public client sends them', () => {
    // What Express hands over after form-decoding the observed URL (+ is a space).
    const query = {
      select_filters:
        '{"day": {"gte": 1761955200, "lte": 1762300800}, "type": {"in": ["volume", "instance", "volume"]}}',
      latest_first: 'false',
      limit: '20',
      format: 'tree',
      after_token: 'TOKEN123',
    };
    expect(parseChargeQuery(query)).toEqual({
      gte: 1761955200,
      lte: 1762300800,
      categories: ['instance', 'volume'],
      format: 'tree',
      latestFirst: false,
      limit: 20,
      afterToken: 'TOKEN123',
    });
  });

  it("reads the benches' paths as the query they mean (they ask as the public client does)", () => {
    const path = chargesPagePath({
      gte: 1761955200,
      lte: 1762300800,
      latestFirst: false,
      limit: 8,
      format: 'tree',
      afterToken: 'a+b/c=',
    });
    expect(path).toContain('select_filters=%7B%22day%22%3A+%7B%22gte%22%3A+1761955200%2C+');
    const query = Object.fromEntries(new URL(path, 'http://api').searchParams);
    expect(parseChargeQuery(query)).toEqual({
      gte: 1761955200,
      lte: 1762300800,
      categories: null,
      format: 'tree',
      latestFirst: false,
      limit: 8,
      afterToken: 'a+b/c=',
    });
  });

  it('treats all three classes as no type filter (one canonical walk)', () => {
    const all = parseChargeQuery({
      select_filters: day(0, 1, { type: { in: ['serverless', 'volume', 'instance'] } }),
    });
    expect(all.categories).toBeNull();
  });

  it('serves a limit above 500 as 500', () => {
    expect(parseChargeQuery({ select_filters: day(0, 1), limit: '501' }).limit).toBe(500);
    expect(
      parseChargeQuery({ select_filters: day(0, 1), limit: '99999999999999999999' }).limit,
    ).toBe(500);
  });

  it.each([
    [{}],
    [{ select_filters: '{}' }],
    [{ select_filters: JSON.stringify({ day: { gte: 1 } }) }],
    [{ select_filters: JSON.stringify({ day: { lte: 1 } }) }],
    [{ select_filters: JSON.stringify({ day: 5 }) }],
  ])('asks for both day bounds (%j)', (query) => {
    const error = failure(query);
    expect(error.code).toBe('charges_day_range_required');
    expect(error.message).toBe(DAY_RANGE_REQUIRED_MSG);
  });

  it.each([
    [{ select_filters: 'not json' }, 'select_filters must be a JSON object'],
    [{ select_filters: '"text"' }, 'select_filters must be a JSON object'],
    [{ select_filters: day(2, 1) }, 'select_filters.day.gte must not be greater'],
    [{ select_filters: day(1.5, 2) }, 'select_filters.day.gte must be an integer'],
    [{ select_filters: day(1, '2') }, 'select_filters.day.lte must be an integer'],
    [
      { select_filters: day(1, 2, { type: { in: ['gpu'] } }) },
      'select_filters.type.in: unknown type "gpu"',
    ],
    [{ select_filters: day(1, 2, { type: { in: [] } }) }, 'select_filters.type.in must list'],
    [{ select_filters: day(1, 2, { type: 'volume' }) }, 'select_filters.type must be an object'],
    [{ select_filters: day(1, 2), format: 'csv' }, "format must be 'table' or 'tree'"],
    [{ select_filters: day(1, 2), limit: '0' }, 'limit must be an integer'],
    [{ select_filters: day(1, 2), limit: '1.0' }, 'limit must be an integer'],
    [{ select_filters: day(1, 2), limit: '' }, 'limit must be an integer'],
    [{ select_filters: day(1, 2), latest_first: '1' }, 'latest_first must be true or false'],
    [{ select_filters: [day(1, 2), day(1, 2)] }, 'select_filters must be given once'],
  ])('rejects %j', (query, message) => {
    const error = failure(query);
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain(message);
  });

  it('treats an empty after_token as none', () => {
    expect(parseChargeQuery({ select_filters: day(1, 2), after_token: '' }).afterToken).toBeNull();
  });
});
