import {
  allowsNothing,
  constraintWithin,
  describeConstraint,
  intersectConstraints,
  ParamConstraint,
  satisfiesConstraint,
} from './param-constraint';
import { PermissionCategory, PERMISSION_CATEGORIES } from './permission-category';

/** One route a category grant names, with the constraints its parameters must meet. */
export interface RouteGrant {
  readonly constraints: ReadonlyMap<string, ParamConstraint>;
}

/**
 * What a scoped document grants in one category: every route of it (`{}` in the JSON),
 * or only the routes it names.
 */
export type CategoryGrant =
  | { readonly kind: 'all' }
  | { readonly kind: 'routes'; readonly routes: ReadonlyMap<string, RouteGrant> };

/**
 * What a credential (or, later, a role) may do (docs/access.md). A full grant is what a
 * key without a permission document has; a scoped one allows only what it lists.
 */
export type Permissions =
  | { readonly full: true }
  | { readonly full: false; readonly categories: ReadonlyMap<PermissionCategory, CategoryGrant> };

export const FULL_PERMISSIONS: Permissions = Object.freeze({ full: true });

/** A request as permissions judge it. */
export interface AccessRequest {
  readonly category: PermissionCategory;
  readonly route: string;
  /**
   * Every value the request carries under a parameter name (path, body and query alike);
   * a constraint must hold for each of them, and fails when there is none.
   */
  readonly values: (name: string) => readonly unknown[];
}

export type AccessDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly missing: string };

const ALLOWED: AccessDecision = Object.freeze({ allowed: true });

/**
 * Allow or deny one request. A denial names what is missing, in the document's own terms
 * (`billing_read`, `misc: api.endptjobs.update with id eq 42`), never anything secret.
 */
export function decideAccess(permissions: Permissions, request: AccessRequest): AccessDecision {
  if (permissions.full) return ALLOWED;
  const grant = permissions.categories.get(request.category);
  if (grant === undefined) return { allowed: false, missing: request.category };
  if (grant.kind === 'all') return ALLOWED;
  const route = grant.routes.get(request.route);
  if (route === undefined)
    return { allowed: false, missing: `${request.category}: ${request.route}` };
  for (const [name, constraint] of route.constraints) {
    const values = request.values(name);
    if (values.length === 0 || !values.every((value) => satisfiesConstraint(constraint, value))) {
      return {
        allowed: false,
        missing: `${request.category}: ${request.route} with ${name} ${describeConstraint(constraint)} (this request has ${describeValues(values)})`,
      };
    }
  }
  return ALLOWED;
}

function describeValues(values: readonly unknown[]): string {
  if (values.length === 0) return 'none';
  const shown = values.slice(0, 3).map((value) => {
    const text =
      typeof value === 'string' || typeof value === 'number' ? JSON.stringify(value) : typeof value;
    return text.length > 40 ? `${text.slice(0, 40)}...` : text;
  });
  return shown.join(', ');
}

export type WithinResult =
  { readonly within: true } | { readonly within: false; readonly beyond: string };

const WITHIN: WithinResult = Object.freeze({ within: true });

/**
 * Whether `child` allows nothing that `parent` refuses (a key made by a key, a role given
 * by a member): every category, route and constraint of the child is covered by the
 * parent's. Conservative: a child naming every route of a category one by one is still
 * beyond a parent that names them too but not as the whole category. `beyond` names the
 * first grant the parent does not cover.
 */
export function permissionsWithin(child: Permissions, parent: Permissions): WithinResult {
  if (parent.full) return WITHIN;
  if (child.full) return { within: false, beyond: 'full access (no permission document)' };
  for (const [category, childGrant] of child.categories) {
    const parentGrant = parent.categories.get(category);
    if (parentGrant === undefined) return { within: false, beyond: category };
    if (parentGrant.kind === 'all') continue;
    if (childGrant.kind === 'all') return { within: false, beyond: `${category} (every route)` };
    for (const [route, childRoute] of childGrant.routes) {
      if (routeAllowsNothing(childRoute)) continue;
      const parentRoute = parentGrant.routes.get(route);
      if (parentRoute === undefined) return { within: false, beyond: `${category}: ${route}` };
      for (const [name, parentConstraint] of parentRoute.constraints) {
        if (!constraintWithin(childRoute.constraints.get(name), parentConstraint)) {
          return {
            within: false,
            beyond: `${category}: ${route} beyond ${name} ${describeConstraint(parentConstraint)}`,
          };
        }
      }
    }
  }
  return WITHIN;
}

function routeAllowsNothing(route: RouteGrant): boolean {
  for (const constraint of route.constraints.values()) if (allowsNothing(constraint)) return true;
  return false;
}

/**
 * What both allow: a request is allowed by the result exactly when both allow it (a
 * member acting with a key under a role). Routes that end with no value allowed are left
 * out, and so are categories left with no route.
 */
export function intersectPermissions(a: Permissions, b: Permissions): Permissions {
  if (a.full) return b;
  if (b.full) return a;
  const categories = new Map<PermissionCategory, CategoryGrant>();
  for (const [category, grantA] of a.categories) {
    const grantB = b.categories.get(category);
    if (grantB === undefined) continue;
    if (grantA.kind === 'all') categories.set(category, grantB);
    else if (grantB.kind === 'all') categories.set(category, grantA);
    else {
      const routes = new Map<string, RouteGrant>();
      for (const [route, routeA] of grantA.routes) {
        const routeB = grantB.routes.get(route);
        if (routeB === undefined) continue;
        const merged = intersectRoutes(routeA, routeB);
        if (merged) routes.set(route, merged);
      }
      if (routes.size > 0) categories.set(category, { kind: 'routes', routes });
    }
  }
  return { full: false, categories };
}

function intersectRoutes(a: RouteGrant, b: RouteGrant): RouteGrant | null {
  const constraints = new Map<string, ParamConstraint>(a.constraints);
  for (const [name, constraintB] of b.constraints) {
    const constraintA = constraints.get(name);
    if (constraintA === undefined) {
      constraints.set(name, constraintB);
      continue;
    }
    const merged = intersectConstraints(constraintA, constraintB);
    if (merged === null) return null;
    constraints.set(name, merged);
  }
  return { constraints };
}

/** The JSON form of a permission document: `{"api": {category: {route: {constraints}}}}`. */
export type PermissionDocumentJson = { api: Record<string, Record<string, unknown>> };

/**
 * The document a scoped grant is stored and shown as (null for full access), categories
 * in the model's order: parsing it gives back the same grant.
 */
export function permissionsToJson(permissions: Permissions): PermissionDocumentJson | null {
  if (permissions.full) return null;
  const api: Record<string, Record<string, unknown>> = {};
  for (const category of PERMISSION_CATEGORIES) {
    const grant = permissions.categories.get(category);
    // A category left with no route allows nothing: leaving it out says so (`{}` is all).
    if (grant === undefined || (grant.kind === 'routes' && grant.routes.size === 0)) continue;
    const routes: Record<string, unknown> = {};
    if (grant.kind === 'routes') {
      for (const [route, routeGrant] of grant.routes) {
        routes[route] =
          routeGrant.constraints.size === 0
            ? {}
            : { constraints: Object.fromEntries(routeGrant.constraints) };
      }
    }
    api[category] = routes;
  }
  return { api };
}
