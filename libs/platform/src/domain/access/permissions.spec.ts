import fc from 'fast-check';
import {
  allowsNothing,
  canonicalValue,
  constraintWithin,
  ParamConstraint,
  satisfiesConstraint,
} from './param-constraint';
import { PermissionCategory } from './permission-category';
import { parsePermissionDocument } from './permission-document';
import {
  AccessRequest,
  decideAccess,
  FULL_PERMISSIONS,
  intersectPermissions,
  Permissions,
  permissionsToJson,
  permissionsWithin,
} from './permissions';

/** A small universe, so random documents and requests meet often. */
const CATEGORIES: PermissionCategory[] = ['misc', 'billing_read', 'user_write'];
const ROUTES = ['r1', 'r2'];
const PARAMS = ['id', 'n'];

const operand = fc.oneof(
  fc.integer({ min: -2, max: 6 }),
  fc.constantFrom('3', 'a', '03', true, null),
);
const bound = fc.integer({ min: -2, max: 6 });

const constraint: fc.Arbitrary<ParamConstraint> = fc
  .record({ eq: operand, gte: bound, lte: bound }, { requiredKeys: [] })
  .filter((c) => Object.keys(c).length > 0);

const documentJson: fc.Arbitrary<unknown> = fc.option(
  fc.record({
    api: fc.dictionary(
      fc.constantFrom(...CATEGORIES),
      fc.oneof(
        fc.constant({}),
        fc.dictionary(
          fc.constantFrom(...ROUTES),
          fc.oneof(
            fc.constant({}),
            fc.record({
              constraints: fc.dictionary(fc.constantFrom(...PARAMS), constraint, { minKeys: 1 }),
            }),
          ),
          { minKeys: 1 },
        ),
      ),
    ),
  }),
  { freq: 6 },
);

function toPermissions(json: unknown): Permissions {
  const result = parsePermissionDocument(json);
  if (!result.ok) throw new Error(result.problem);
  return result.permissions;
}

const permissions = documentJson.map(toPermissions);

const value = fc.oneof(
  fc.integer({ min: -3, max: 7 }),
  fc.constantFrom('3', '03', 'a', '', '4.0', true, false, null),
  fc.constant([3]),
);

const accessRequest: fc.Arbitrary<AccessRequest> = fc
  .record({
    category: fc.constantFrom(...CATEGORIES),
    route: fc.constantFrom(...ROUTES),
    // Mostly one value per parameter: a constraint on an absent parameter denies at once.
    values: fc.record({
      id: fc.oneof({ weight: 4, arbitrary: fc.tuple(value) }, fc.array(value, { maxLength: 2 })),
      n: fc.oneof({ weight: 4, arbitrary: fc.tuple(value) }, fc.array(value, { maxLength: 2 })),
    }) as fc.Arbitrary<Record<string, unknown[]>>,
  })
  .map(({ category, route, values }) => ({
    category,
    route,
    values: (name: string) => values[name] ?? [],
  }));

/** Every request of the universe: each category and route, each parameter absent or one value. */
const SAMPLE_VALUES: unknown[] = [-3, 0, 1, 2, 3, 4, 5, 6, 7, '03', 'a', true, null, [3]];
const EVERY_REQUEST: AccessRequest[] = CATEGORIES.flatMap((category) =>
  ROUTES.flatMap((route) =>
    [undefined, ...SAMPLE_VALUES].flatMap((id) =>
      [undefined, ...SAMPLE_VALUES].map((n) => ({
        category,
        route,
        values: (name: string) => {
          const v = name === 'id' ? id : name === 'n' ? n : undefined;
          return v === undefined ? [] : [v];
        },
      })),
    ),
  ),
);

const allowed = (p: Permissions, r: AccessRequest) => decideAccess(p, r).allowed;

describe('permissions', () => {
  it('a child is never allowed what its parent is refused (random documents and requests)', () => {
    // Children are random, narrowed from the parent (so that "within" holds often), or the
    // parent with one constraint replaced by a random one (a near miss, looser or not).
    const pair = documentJson.chain((parentJson) => {
      const parent = toPermissions(parentJson);
      return fc.tuple(
        fc.constant(parent),
        fc.oneof(
          permissions,
          permissions.map((other) => intersectPermissions(other, parent)),
          fc
            .tuple(constraint, fc.nat())
            .map(([replacement, index]) =>
              toPermissions(replaceConstraint(parentJson, replacement, index)),
            ),
        ),
      );
    });
    let within = 0;
    fc.assert(
      fc.property(pair, ([parent, child]) => {
        if (!permissionsWithin(child, parent).within) return true;
        within++;
        return EVERY_REQUEST.every(
          (request) => !allowed(child, request) || allowed(parent, request),
        );
      }),
      { numRuns: 4000 },
    );
    // Not vacuous: most pairs met the premise.
    expect(within).toBeGreaterThan(1000);
  });

  it('the intersection allows exactly what both allow, and lies within each', () => {
    fc.assert(
      fc.property(
        permissions,
        permissions,
        fc.array(accessRequest, { maxLength: 20 }),
        (a, b, requests) => {
          const both = intersectPermissions(a, b);
          expect(permissionsWithin(both, a).within).toBe(true);
          expect(permissionsWithin(both, b).within).toBe(true);
          for (const request of requests)
            expect(allowed(both, request)).toBe(allowed(a, request) && allowed(b, request));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a document written back and read again decides alike; within is reflexive', () => {
    fc.assert(
      fc.property(permissions, fc.array(accessRequest, { maxLength: 20 }), (p, requests) => {
        const again = toPermissions(permissionsToJson(p));
        expect(permissionsWithin(p, p).within).toBe(true);
        for (const request of requests) expect(allowed(again, request)).toBe(allowed(p, request));
      }),
      { numRuns: 1000 },
    );
  });

  it('constraintWithin agrees with the values each side allows', () => {
    fc.assert(
      fc.property(
        constraint,
        constraint,
        fc.array(value, { maxLength: 30 }),
        (child, parent, values) => {
          const c = toConstraint(child);
          const p = toConstraint(parent);
          if (!constraintWithin(c, p)) return;
          for (const v of values)
            if (satisfiesConstraint(c, v)) expect(satisfiesConstraint(p, v)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('full access is within nothing scoped, and everything is within full access', () => {
    const scoped = toPermissions({ api: { misc: {} } });
    expect(permissionsWithin(FULL_PERMISSIONS, scoped)).toEqual({
      within: false,
      beyond: 'full access (no permission document)',
    });
    expect(permissionsWithin(scoped, FULL_PERMISSIONS).within).toBe(true);
    expect(intersectPermissions(FULL_PERMISSIONS, scoped)).toBe(scoped);
  });

  it('names the first grant a child has beyond its parent', () => {
    const parent = toPermissions({
      api: { misc: { r1: { constraints: { id: { gte: 1, lte: 5 } } } }, billing_read: {} },
    });
    expect(permissionsWithin(toPermissions({ api: { user_write: {} } }), parent)).toEqual({
      within: false,
      beyond: 'user_write',
    });
    expect(permissionsWithin(toPermissions({ api: { misc: {} } }), parent)).toEqual({
      within: false,
      beyond: 'misc (every route)',
    });
    expect(permissionsWithin(toPermissions({ api: { misc: { r2: {} } } }), parent)).toEqual({
      within: false,
      beyond: 'misc: r2',
    });
    expect(
      permissionsWithin(
        toPermissions({ api: { misc: { r1: { constraints: { id: { lte: 5 } } } } } }),
        parent,
      ),
    ).toEqual({ within: false, beyond: 'misc: r1 beyond id gte 1 and lte 5' });
    expect(
      permissionsWithin(
        toPermissions({ api: { misc: { r1: { constraints: { id: { eq: '3' } } } } } }),
        parent,
      ).within,
    ).toBe(true);
  });

  it('compares ids as the routes read them: "42" and 42 are one value, "4.0" and "a" are not 4', () => {
    expect(canonicalValue('42')).toBe(42);
    expect(canonicalValue('042')).toBe(42);
    expect(canonicalValue('1e1')).toBe('1e1');
    expect(canonicalValue([1])).toBeUndefined();
    expect(satisfiesConstraint({ eq: 42 }, '42')).toBe(true);
    expect(satisfiesConstraint({ gte: 4 }, 'a')).toBe(false);
    expect(satisfiesConstraint({ eq: 'a' }, 'a')).toBe(true);
    expect(allowsNothing({ eq: 5, gte: 6 })).toBe(true);
    expect(allowsNothing({ gte: 3, lte: 2 })).toBe(true);
  });
});

/** A copy of a document with its `index`-th constraint (in walk order, modulo) replaced. */
function replaceConstraint(
  document: unknown,
  replacement: ParamConstraint,
  index: number,
): unknown {
  if (document === null || document === undefined) return document;
  const copy = JSON.parse(JSON.stringify(document)) as {
    api: Record<string, Record<string, { constraints?: Record<string, unknown> }>>;
  };
  const slots: Array<[Record<string, unknown>, string]> = [];
  for (const routes of Object.values(copy.api))
    for (const route of Object.values(routes))
      for (const name of Object.keys(route.constraints ?? {}))
        slots.push([route.constraints!, name]);
  if (slots.length === 0) return copy;
  const [constraints, name] = slots[index % slots.length];
  constraints[name] = replacement;
  return copy;
}

/** A generated constraint with its eq operand as a parsed document holds it. */
function toConstraint(raw: ParamConstraint): ParamConstraint {
  return raw.eq === undefined ? raw : { ...raw, eq: canonicalValue(raw.eq) as never };
}
