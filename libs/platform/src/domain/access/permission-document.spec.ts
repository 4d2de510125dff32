import { RouteCatalog } from './permission-category';
import { parsePermissionDocument } from './permission-document';
import { decideAccess, Permissions, permissionsToJson } from './permissions';

const ROUTES: Record<string, string> = {
  'api.endptjobs.update': 'misc',
  'api.endptjobs.list': 'misc',
  'api.charges.show': 'billing_read',
};
const catalog: RouteCatalog = {
  categoryOf: (route) => ROUTES[route] as never,
};

function parsed(raw: unknown, wildcards = {}): Permissions {
  const result = parsePermissionDocument(raw, { catalog, wildcards });
  if (!result.ok) throw new Error(result.problem);
  return result.permissions;
}

function problem(raw: unknown, wildcards = {}): string {
  const result = parsePermissionDocument(raw, { catalog, wildcards });
  if (result.ok) throw new Error('parsed');
  return result.problem;
}

const request = (category: string, route: string, values: Record<string, unknown[]> = {}) => ({
  category: category as never,
  route,
  values: (name: string) => values[name] ?? [],
});

describe('parsePermissionDocument', () => {
  it('null or absent is full access; {"api": {}} allows nothing', () => {
    expect(parsed(null)).toEqual({ full: true });
    expect(parsed(undefined)).toEqual({ full: true });
    const none = parsed({ api: {} });
    expect(decideAccess(none, request('misc', 'api.endptjobs.list')).allowed).toBe(false);
  });

  it('reads the public examples: categories, named routes and constraints', () => {
    const permissions = parsed({
      api: {
        billing_read: {},
        misc: { 'api.endptjobs.update': { constraints: { id: { eq: 42 } } } },
      },
    });
    expect(decideAccess(permissions, request('billing_read', 'api.charges.show')).allowed).toBe(
      true,
    );
    expect(
      decideAccess(permissions, request('misc', 'api.endptjobs.update', { id: ['42'] })).allowed,
    ).toBe(true);
    expect(
      decideAccess(permissions, request('misc', 'api.endptjobs.update', { id: ['43'] })),
    ).toEqual({
      allowed: false,
      missing: 'misc: api.endptjobs.update with id eq 42 (this request has "43")',
    });
    expect(decideAccess(permissions, request('misc', 'api.endptjobs.list'))).toEqual({
      allowed: false,
      missing: 'misc: api.endptjobs.list',
    });
    expect(decideAccess(permissions, request('user_read', 'api.user.show'))).toEqual({
      allowed: false,
      missing: 'user_read',
    });
  });

  it('names the path of every mistake', () => {
    expect(problem({ api: { billing_reed: {} } })).toMatch(
      /^permissions\.api\.billing_reed: unknown category \(one of instance_read, /,
    );
    expect(
      problem({ api: { misc: { 'api.endptjobs.update': { constraints: { id: { gt: 1 } } } } } }),
    ).toBe(
      'permissions.api.misc["api.endptjobs.update"].constraints.id.gt: unknown operator (one of eq, gte, lte)',
    );
    expect(problem({ api: { misc: { 'api.nope': {} } } })).toBe(
      'permissions.api.misc["api.nope"]: unknown route',
    );
    expect(problem({ api: { misc: { 'api.charges.show': {} } } })).toBe(
      'permissions.api.misc["api.charges.show"]: route is in category billing_read, not misc',
    );
    expect(problem({ read: true, write: false })).toBe(
      'permissions.read: unknown key (the document has one key, "api")',
    );
    expect(problem([])).toMatch(/^permissions: must be an object/);
    expect(problem({ api: { misc: [] } })).toMatch(/^permissions\.api\.misc: must be an object/);
    expect(problem({ api: { misc: { 'api.endptjobs.update': { limit: 1 } } } })).toBe(
      'permissions.api.misc["api.endptjobs.update"].limit: unknown key (a route has "constraints" only)',
    );
    expect(
      problem({ api: { misc: { 'api.endptjobs.update': { constraints: { id: {} } } } } }),
    ).toBe(
      'permissions.api.misc["api.endptjobs.update"].constraints.id: needs at least one operator (eq, gte, lte)',
    );
    expect(
      problem({ api: { misc: { 'api.endptjobs.update': { constraints: { id: { lte: 'x' } } } } } }),
    ).toBe('permissions.api.misc["api.endptjobs.update"].constraints.id.lte: must be a number');
    expect(
      problem({ api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: [1] } } } } } }),
    ).toMatch(/\.constraints\.id\.eq: must be a number, a string, a boolean or null$/);
    expect(
      problem({ api: { misc: { 'api.endptjobs.update': { constraints: { 'a b': { eq: 1 } } } } } }),
    ).toBe('permissions.api.misc["api.endptjobs.update"].constraints["a b"]: not a parameter name');
  });

  it('fills {{name}} wildcards from key_params, and names one it lacks', () => {
    const document = {
      api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: '{{group}}' } } } } },
    };
    const permissions = parsed(document, { group: 7 });
    expect(
      decideAccess(permissions, request('misc', 'api.endptjobs.update', { id: ['7'] })).allowed,
    ).toBe(true);
    expect(
      decideAccess(permissions, request('misc', 'api.endptjobs.update', { id: ['8'] })).allowed,
    ).toBe(false);
    expect(problem(document)).toBe(
      'permissions.api.misc["api.endptjobs.update"].constraints.id.eq: wildcard {{group}} has no value in key_params',
    );
  });

  it('without a catalog, route names are not checked (stored documents of older versions)', () => {
    const result = parsePermissionDocument({ api: { misc: { 'api.gone': {} } } });
    expect(result.ok).toBe(true);
  });

  it('writes back a document that reads as the same grant', () => {
    const document = {
      api: {
        misc: {
          'api.endptjobs.update': { constraints: { id: { gte: 1, lte: 9 }, name: { eq: 'a' } } },
          'api.endptjobs.list': {},
        },
        billing_read: {},
      },
    };
    const json = permissionsToJson(parsed(document));
    // Categories come back in the model's order.
    expect(Object.keys(json!.api)).toEqual(['billing_read', 'misc']);
    expect(parsed(json)).toEqual(parsed(document));
  });
});
