/**
 * The permission categories of the public marketplace's permission model (docs/access.md):
 * every route belongs to exactly one, and a scoped key or role lists the ones it grants.
 */
export const PERMISSION_CATEGORIES = [
  'instance_read',
  'instance_write',
  'user_read',
  'user_write',
  'billing_read',
  'billing_write',
  'machine_read',
  'machine_write',
  'misc',
  'team_read',
  'team_write',
] as const;

export type PermissionCategory = (typeof PERMISSION_CATEGORIES)[number];

const CATEGORY_SET: ReadonlySet<string> = new Set(PERMISSION_CATEGORIES);

export function isPermissionCategory(name: string): name is PermissionCategory {
  return CATEGORY_SET.has(name);
}

/** Where a route sits in the model: its category and the name constraints refer to it by. */
export interface RouteAccess {
  readonly category: PermissionCategory;
  /** Unique across the api, `api.<resource>.<action>` (e.g. `api.endptjobs.update`). */
  readonly route: string;
}

/**
 * The routes a permission document may name, by route name. The api builds it from the
 * route decorators at start; a document naming a route it does not know is refused.
 */
export interface RouteCatalog {
  categoryOf(route: string): PermissionCategory | undefined;
}
