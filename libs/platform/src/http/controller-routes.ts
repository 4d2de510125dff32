import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';

/** One route handler of a controller, with every path it answers as the docs write it. */
export interface ControllerRoute {
  controller: new (...args: never[]) => unknown;
  methodName: string;
  handler: object;
  method: string;
  /** `/api/v0/endptjobs/{id}/`: one per controller path and method path. */
  paths: string[];
}

function segments(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value ?? ''];
  return list.map((item) => String(item));
}

/** `api/v0/endptjobs` + `:id` as the docs write it: `/api/v0/endptjobs/{id}/`. */
function pathTemplate(controllerPath: string, methodPath: string): string {
  const joined = [controllerPath, methodPath]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part.length > 0)
    .join('/');
  return `/${joined.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')}${joined ? '/' : ''}`;
}

/**
 * Every route handler of every controller the application holds, read from the route
 * decorators' metadata: what the start-up checks of routes (permissions, rate-limit
 * buckets) walk.
 */
export function controllerRoutes(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
): ControllerRoute[] {
  const routes: ControllerRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as ControllerRoute['controller'] | undefined;
    if (!controller?.prototype) continue;
    const controllerPaths = segments(Reflect.getMetadata(PATH_METADATA, controller));
    for (const methodName of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[methodName] as object;
      const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (methodPath === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const paths = controllerPaths.flatMap((controllerPath) =>
        segments(methodPath).map((path) => pathTemplate(controllerPath, path)),
      );
      routes.push({ controller, methodName, handler, method, paths });
    }
  }
  return routes;
}
