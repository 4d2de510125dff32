import {
  canonicalValue,
  CONSTRAINT_OPERATORS,
  ConstraintOperator,
  ParamConstraint,
  ScalarValue,
} from './param-constraint';
import {
  isPermissionCategory,
  PERMISSION_CATEGORIES,
  PermissionCategory,
  RouteCatalog,
} from './permission-category';
import { CategoryGrant, FULL_PERMISSIONS, Permissions, RouteGrant } from './permissions';

/** Bounds no real document comes near; they keep a hostile one cheap to check. */
export const PERMISSION_DOCUMENT_LIMITS = {
  routesPerCategory: 200,
  constraintsPerRoute: 32,
  operandChars: 256,
} as const;

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** An operand `"{{name}}"` is a wildcard, filled from the key's key_params. */
const WILDCARD = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;

export type DocumentParse =
  | { readonly ok: true; readonly permissions: Permissions }
  | { readonly ok: false; readonly problem: string };

export interface PermissionDocumentOptions {
  /** The routes the document may name; without one, route names are not checked. */
  readonly catalog?: RouteCatalog;
  /** Values of the `{{name}}` wildcards (a key's key_params). */
  readonly wildcards?: Readonly<Record<string, ScalarValue>>;
  /** How the document is named in problems: `permissions` by default. */
  readonly path?: string;
}

class DocumentProblem extends Error {}

/** `.name` for an identifier, `["..."]` otherwise: route names hold dots. */
function at(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

function fail(path: string, problem: string): never {
  throw new DocumentProblem(`${path}: ${problem}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a permission document (docs/access.md): null or absent is full access;
 * otherwise `{"api": {category: {} | {route: {} | {"constraints": {param: {op:
 * operand}}}}}}`, default-deny. Every mistake (an unknown category, route, key or
 * operator, a wrong operand) is one problem naming its path, e.g.
 * `permissions.api.misc["api.endptjobs.update"].constraints.id.gt: unknown operator`.
 */
export function parsePermissionDocument(
  raw: unknown,
  options: PermissionDocumentOptions = {},
): DocumentParse {
  if (raw === null || raw === undefined) return { ok: true, permissions: FULL_PERMISSIONS };
  try {
    return { ok: true, permissions: readDocument(raw, options) };
  } catch (error) {
    if (error instanceof DocumentProblem) return { ok: false, problem: error.message };
    throw error;
  }
}

function readDocument(raw: unknown, options: PermissionDocumentOptions): Permissions {
  const path = options.path ?? 'permissions';
  if (!isObject(raw)) fail(path, 'must be an object {"api": {<category>: {...}}} or null');
  for (const key of Object.keys(raw))
    if (key !== 'api') fail(at(path, key), 'unknown key (the document has one key, "api")');
  const api = raw.api;
  const apiPath = at(path, 'api');
  if (!isObject(api)) fail(apiPath, 'must be an object of categories');
  const categories = new Map<PermissionCategory, CategoryGrant>();
  for (const [name, value] of Object.entries(api)) {
    const categoryPath = at(apiPath, name);
    if (!isPermissionCategory(name))
      fail(categoryPath, `unknown category (one of ${PERMISSION_CATEGORIES.join(', ')})`);
    categories.set(name, readCategory(name, value, categoryPath, options));
  }
  return { full: false, categories };
}

function readCategory(
  category: PermissionCategory,
  value: unknown,
  path: string,
  options: PermissionDocumentOptions,
): CategoryGrant {
  if (!isObject(value)) fail(path, 'must be an object: {} for every route, or routes by name');
  const entries = Object.entries(value);
  if (entries.length === 0) return { kind: 'all' };
  if (entries.length > PERMISSION_DOCUMENT_LIMITS.routesPerCategory)
    fail(path, `names more than ${PERMISSION_DOCUMENT_LIMITS.routesPerCategory} routes`);
  const routes = new Map<string, RouteGrant>();
  for (const [route, grant] of entries) {
    const routePath = at(path, route);
    const routeCategory = options.catalog?.categoryOf(route);
    if (options.catalog && routeCategory === undefined) fail(routePath, 'unknown route');
    if (routeCategory !== undefined && routeCategory !== category)
      fail(routePath, `route is in category ${routeCategory}, not ${category}`);
    routes.set(route, readRoute(grant, routePath, options));
  }
  return { kind: 'routes', routes };
}

function readRoute(value: unknown, path: string, options: PermissionDocumentOptions): RouteGrant {
  if (!isObject(value)) fail(path, 'must be an object: {} or {"constraints": {...}}');
  for (const key of Object.keys(value))
    if (key !== 'constraints') fail(at(path, key), 'unknown key (a route has "constraints" only)');
  const constraints = new Map<string, ParamConstraint>();
  if (value.constraints === undefined) return { constraints };
  const constraintsPath = at(path, 'constraints');
  if (!isObject(value.constraints)) fail(constraintsPath, 'must be an object of parameters');
  const entries = Object.entries(value.constraints);
  if (entries.length > PERMISSION_DOCUMENT_LIMITS.constraintsPerRoute)
    fail(
      constraintsPath,
      `constrains more than ${PERMISSION_DOCUMENT_LIMITS.constraintsPerRoute} parameters`,
    );
  for (const [name, operators] of entries) {
    const paramPath = at(constraintsPath, name);
    if (!PARAM_NAME.test(name)) fail(paramPath, 'not a parameter name');
    constraints.set(name, readConstraint(operators, paramPath, options));
  }
  return { constraints };
}

function readConstraint(
  value: unknown,
  path: string,
  options: PermissionDocumentOptions,
): ParamConstraint {
  if (!isObject(value)) fail(path, 'must be an object of operators (eq, gte, lte)');
  const constraint: { eq?: ScalarValue; gte?: number; lte?: number } = {};
  const entries = Object.entries(value);
  if (entries.length === 0) fail(path, 'needs at least one operator (eq, gte, lte)');
  for (const [operator, rawOperand] of entries) {
    const operatorPath = at(path, operator);
    if (!(CONSTRAINT_OPERATORS as readonly string[]).includes(operator))
      fail(operatorPath, `unknown operator (one of ${CONSTRAINT_OPERATORS.join(', ')})`);
    const operand = fillWildcard(rawOperand, operatorPath, options);
    if ((operator as ConstraintOperator) === 'eq') {
      const scalar = canonicalValue(operand);
      if (scalar === undefined) fail(operatorPath, 'must be a number, a string, a boolean or null');
      if (typeof scalar === 'string' && scalar.length > PERMISSION_DOCUMENT_LIMITS.operandChars)
        fail(operatorPath, `must be at most ${PERMISSION_DOCUMENT_LIMITS.operandChars} characters`);
      constraint.eq = scalar;
    } else {
      const number = canonicalValue(operand);
      if (typeof number !== 'number') fail(operatorPath, 'must be a number');
      constraint[operator as 'gte' | 'lte'] = number;
    }
  }
  return constraint;
}

function fillWildcard(operand: unknown, path: string, options: PermissionDocumentOptions): unknown {
  if (typeof operand !== 'string') return operand;
  const match = WILDCARD.exec(operand);
  if (!match) return operand;
  const name = match[1];
  const wildcards = options.wildcards ?? {};
  if (!Object.prototype.hasOwnProperty.call(wildcards, name))
    fail(path, `wildcard {{${name}}} has no value in key_params`);
  return wildcards[name];
}
