import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AccessCatalog, RouteAccessEntry } from '../application/ports/access-catalog.port';
import { PermissionCategory } from '../domain/access/permission-category';
import { ROUTE_ACCESS, RouteAccessMetadata } from './access.decorator';
import { controllerRoutes } from './controller-routes';
import { AUTH_POLICY, AuthPolicy } from './route-policy.decorators';

/** A route that declares no permission: the process must not start with it. */
export class UndeclaredRouteAccessError extends Error {
  constructor(problems: string[]) {
    super(
      `Every route declares its permission with @Access(category, name) beside its route ` +
        `decorator, or is @Public() (docs/access.md):\n  ${problems.join('\n  ')}`,
    );
    this.name = 'UndeclaredRouteAccessError';
  }
}

/**
 * Reads every controller route's `@Access` at start and refuses to let the process start
 * when one lacks it (and is not `@Public()`), or when two routes share a name: the
 * permission model must know every route the api serves. Also the catalog that
 * permission documents are checked against and docs/access.md's table is written from.
 */
@Injectable()
export class RouteAccessRegistry extends AccessCatalog implements OnModuleInit {
  private byRoute = new Map<string, RouteAccessEntry>();
  private sorted: RouteAccessEntry[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {
    super();
  }

  onModuleInit(): void {
    const entries: RouteAccessEntry[] = [];
    const problems: string[] = [];
    for (const route of controllerRoutes(this.discovery, this.scanner)) {
      const { controller, methodName, handler, method } = route;
      const policy = this.reflector.getAllAndOverride<AuthPolicy | undefined>(AUTH_POLICY, [
        handler as never,
        controller,
      ]);
      const access = this.reflector.get<RouteAccessMetadata | undefined>(
        ROUTE_ACCESS,
        handler as never,
      );
      for (const path of route.paths) {
        if (access) {
          entries.push({ ...access, method, path });
        } else if (policy !== 'public') {
          problems.push(`${method} ${path} (${controller.name}.${methodName})`);
        }
      }
    }
    const byRoute = new Map<string, RouteAccessEntry>();
    for (const entry of entries) {
      const known = byRoute.get(entry.route);
      if (known && (known.method !== entry.method || known.path !== entry.path)) {
        problems.push(
          `${entry.method} ${entry.path}: the name ${entry.route} is also ${known.method} ${known.path}`,
        );
      }
      byRoute.set(entry.route, entry);
    }
    if (problems.length > 0) throw new UndeclaredRouteAccessError(problems);
    this.byRoute = byRoute;
    // By code unit, not locale: the order (and docs/access.md's table) is the same everywhere.
    const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    this.sorted = [...byRoute.values()].sort(
      (a, b) => order(a.path, b.path) || order(a.method, b.method),
    );
  }

  categoryOf(route: string): PermissionCategory | undefined {
    return this.byRoute.get(route)?.category;
  }

  entry(route: string): RouteAccessEntry | undefined {
    return this.byRoute.get(route);
  }

  entries(): readonly RouteAccessEntry[] {
    return this.sorted;
  }
}
