import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { PermissionCategory, RouteAccess } from '../domain/access/permission-category';

export const ROUTE_ACCESS = 'route-access';

export interface RouteAccessMetadata extends RouteAccess {
  /** Recorded in the audit log although it changes nothing (an export). */
  readonly audited: boolean;
}

/**
 * The permission a route needs (docs/access.md): its category, and the name permission
 * documents use for it (`api.<resource>.<action>`, unique across the api). Every route
 * declares one, beside its route decorator, unless it is `@Public()`; the api refuses to
 * start otherwise. `audited` records a read in the audit log as writes are (an export).
 * The OpenAPI document carries both as `x-permission`.
 */
export const Access = (
  category: PermissionCategory,
  route: string,
  options: { audited?: boolean } = {},
) =>
  applyDecorators(
    SetMetadata(ROUTE_ACCESS, {
      category,
      route,
      audited: options.audited ?? false,
    } satisfies RouteAccessMetadata),
    ApiExtension('x-permission', { category, route }),
  );
