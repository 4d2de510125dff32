import { AccessCatalog, RouteAccessEntry } from '../application/ports/access-catalog.port';
import { PermissionCategory } from '../domain/access/permission-category';

/** A catalog of the routes it is given (`{'api.endptjobs.update': 'misc'}`), for unit tests. */
export class StaticAccessCatalog extends AccessCatalog {
  constructor(private readonly routes: Record<string, PermissionCategory>) {
    super();
  }

  categoryOf(route: string): PermissionCategory | undefined {
    return Object.prototype.hasOwnProperty.call(this.routes, route)
      ? this.routes[route]
      : undefined;
  }

  entry(route: string): RouteAccessEntry | undefined {
    return this.entries().find((entry) => entry.route === route);
  }

  entries(): readonly RouteAccessEntry[] {
    return Object.entries(this.routes).map(([route, category]) => ({
      category,
      route,
      method: 'GET',
      path: `/${route.replace(/\./g, '/')}/`,
      audited: false,
    }));
  }
}
