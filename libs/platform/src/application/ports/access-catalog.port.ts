import { PermissionCategory, RouteCatalog } from '../../domain/access/permission-category';

/** One route of the api as the permission model sees it. */
export interface RouteAccessEntry {
  readonly category: PermissionCategory;
  /** The name permission documents use, `api.<resource>.<action>`. */
  readonly route: string;
  readonly method: string;
  /** The path template, `/api/v0/endptjobs/{id}/`. */
  readonly path: string;
  /** Recorded in the audit log although it changes nothing (an export). */
  readonly audited: boolean;
}

/**
 * The routes of the running process and their permission categories, read from the route
 * decorators at start (docs/access.md): what permission documents are checked against.
 */
export abstract class AccessCatalog implements RouteCatalog {
  abstract categoryOf(route: string): PermissionCategory | undefined;
  /** The route of that name: its method and path template. */
  abstract entry(route: string): RouteAccessEntry | undefined;
  /** Every route with its category, in path order. */
  abstract entries(): readonly RouteAccessEntry[];
}
