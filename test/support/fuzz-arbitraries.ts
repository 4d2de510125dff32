import fc from 'fast-check';

/** Values that break naive parsers: wrong types, extremes, unicode, NaN-like strings. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -0.5,
    1.5,
    2 ** 31,
    2 ** 53 + 1,
    -(2 ** 63),
    1e308,
    '',
    ' ',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '0x10',
    '12abc',
    '٣',
    '１２３４５６',
    '\u0000',
    '\ud800',
    '𝕏'.repeat(40),
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '../../etc/passwd',
    '%00',
    '{"$gt": ""}',
    'ABCD-EFGH-IJKL',
    '123456',
    '+15551234567',
  ),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constant('x'.repeat(5000)),
  fc.array(fc.integer(), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 3 }),
);

/** A JSON object whose keys come from the route's schema (and a few strangers). */
export function bodyFor(knownKeys: string[]): fc.Arbitrary<Record<string, unknown>> {
  const key =
    knownKeys.length > 0
      ? fc.oneof(fc.constantFrom(...knownKeys), fc.string({ maxLength: 12 }))
      : fc.string({ maxLength: 12 });
  return fc.dictionary(key, nastyValue, { maxKeys: 8 });
}

/** Raw request bodies that are not valid JSON objects at all. */
export const malformedBody: fc.Arbitrary<{ body: string; contentType: string }> = fc.oneof(
  fc.record({
    body: fc.constantFrom(
      '{',
      '{"a":',
      '[1,2]',
      '"str"',
      '42',
      'null',
      '{"a":1,"a":2}',
      '\u0000',
      '{"a":NaN}',
      "{'a':1}",
    ),
    contentType: fc.constant('application/json'),
  }),
  fc.record({
    body: fc.string({ maxLength: 50 }),
    contentType: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data',
    ),
  }),
);

/** Query strings, well-formed or not (bad percent-encoding, repeated keys, JSON garbage). */
export const queryString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '?select_filters=%7B',
    '?select_filters=%E0%A4%A',
    '?select_filters={"day":{"gte":"a","lte":[]}}',
    '?limit=-1&limit=2',
    '?limit=1e3',
    '?after_token=%00',
    '?format[]=tree',
    '?latest_first=maybe',
  ),
  fc
    .dictionary(
      fc.constantFrom('select_filters', 'limit', 'format', 'latest_first', 'after_token', 'x'),
      fc.string({ maxLength: 30 }),
      {
        maxKeys: 4,
      },
    )
    .map((query) => `?${new URLSearchParams(query as Record<string, string>).toString()}`),
);

/** Path parameters: ids of every wrong shape. */
export const pathParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', 'abc', '99999999999999999999', '%20', '1e3', 'NaN'),
  fc.integer({ min: 1, max: 2 ** 31 - 1 }).map(String),
);

/** Authorization headers: none, garbage, or the caller's own valid key. */
export function authHeader(validKey: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(`Bearer ${validKey}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        `Bearer ${validKey}x`,
        'Bearer \u00ff',
      ),
    },
  );
}
