import { encodeQuery } from './query-encoding';

describe('encodeQuery', () => {
  it('sends strings as they are and everything else as JSON, form-encoded, in order', () => {
    const query = encodeQuery({
      select_filters: { day: { gte: 1, lte: 2 }, type: { in: ['instance', 'volume'] } },
      latest_first: false,
      limit: 20,
      format: 'table',
      after_token: 'a b+c/=',
    });
    expect(query).toBe(
      'select_filters=%7B%22day%22%3A%7B%22gte%22%3A1%2C%22lte%22%3A2%7D%2C%22type%22%3A%7B%22in%22%3A%5B%22instance%22%2C%22volume%22%5D%7D%7D' +
        '&latest_first=false&limit=20&format=table&after_token=a+b%2Bc%2F%3D',
    );
    const decoded = new URLSearchParams(query);
    expect(JSON.parse(decoded.get('select_filters')!)).toEqual({
      day: { gte: 1, lte: 2 },
      type: { in: ['instance', 'volume'] },
    });
    expect(decoded.get('after_token')).toBe('a b+c/=');
  });

  it('leaves out undefined values', () => {
    expect(encodeQuery({ a: undefined, b: true })).toBe('b=true');
  });
});
