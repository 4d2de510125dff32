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

/** A raw JSON body `{"<key>": <value text>}`, the value given as JSON text. */
function underKey(keys: string[], valueText: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const key = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('a');
  return fc.tuple(key, valueText).map(([name, text]) => `{${JSON.stringify(name)}:${text}}`);
}

/** Objects and arrays nested past the parser's 32 levels, up to thousands deep. */
const deepNesting: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 33, max: 6000 }), fc.boolean(), fc.constantFrom('1', '"x"', '{}', '[]'))
  .map(([depth, arrays, leaf]) =>
    arrays
      ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`,
  );

/** Strings carrying a C0 control character (tab, LF and CR aside) or DEL. */
const controlCharacter = fc
  .constantFrom(...[...Array(32).keys(), 127].filter((code) => ![9, 10, 13].includes(code)))
  .map((code) => String.fromCharCode(code));
const withControlCharacter: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 10 }), controlCharacter, fc.string({ maxLength: 10 }))
  .map(([before, control, after]) => JSON.stringify(`${before}${control}${after}`));

/** Strings with an unpaired UTF-16 surrogate (JSON.stringify escapes it as \udXXX). */
const withLoneSurrogate: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 10 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.boolean())
  .map(([text, code, before]) => {
    const surrogate = String.fromCharCode(code);
    return JSON.stringify(before ? `${surrogate}${text}` : `${text}${surrogate}`);
  });

/** Numbers JSON can spell but no field can hold: past 2^53, or overflowing to Infinity. */
const hugeNumber: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('9007199254740993', '-9007199254740993', '1e309', '-1e400', '1e30'),
  fc
    .tuple(fc.integer({ min: 17, max: 2000 }), fc.constantFrom('', '-'), fc.constantFrom('', '.5'))
    .map(([digits, sign, fraction]) => `${sign}9${'8'.repeat(digits - 1)}${fraction}`),
);

/** Arrays past the parser's 100 items, up to tens of thousands. */
const hugeArray: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 101, max: 20_000 }), fc.constantFrom('0', '"a"', 'null'))
  .map(([length, item]) => `[${Array(length).fill(item).join(',')}]`);

/**
 * JSON bodies that every route refuses with 400 bad_request before any handler (or the
 * authentication) sees them: each names the limit it breaks.
 */
export function hostileBody(knownKeys: string[]): fc.Arbitrary<{ kind: string; body: string }> {
  return fc.oneof(
    deepNesting.map((body) => ({ kind: 'deep nesting (whole body)', body })),
    underKey(knownKeys, deepNesting).map((body) => ({ kind: 'deep nesting', body })),
    underKey(knownKeys, withControlCharacter).map((body) => ({ kind: 'control character', body })),
    withControlCharacter.map((key) => ({ kind: 'control character in a key', body: `{${key}:1}` })),
    underKey(knownKeys, withLoneSurrogate).map((body) => ({ kind: 'lone surrogate', body })),
    underKey(knownKeys, hugeNumber).map((body) => ({ kind: 'huge number', body })),
    underKey(knownKeys, hugeArray).map((body) => ({ kind: 'huge array', body })),
  );
}

/** Query strings whose decoded values carry a control character. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('select_filters', 'limit', 'after_token', 'format', 'x'),
    fc.string({ maxLength: 8 }),
    controlCharacter,
  )
  .map(
    ([key, text, control]) => `?${new URLSearchParams({ [key]: `${text}${control}` }).toString()}`,
  );
