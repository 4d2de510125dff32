import { Controller, Delete, Get, Put } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { Access } from './access.decorator';
import { RouteAccessRegistry, UndeclaredRouteAccessError } from './route-access.registry';
import { Public } from './route-policy.decorators';

@Controller('api/v0/things')
class DeclaredController {
  @Get()
  @Access('misc', 'api.things.list')
  list(): void {}

  @Put(':id')
  @Access('misc', 'api.things.update')
  update(): void {}

  @Get('export')
  @Access('billing_read', 'api.things.export', { audited: true })
  export(): void {}
}

@Public()
@Controller('probe')
class PublicController {
  @Get()
  probe(): void {}
}

@Controller('api/v0/forgotten')
class UndeclaredController {
  @Delete(':id')
  remove(): void {}
}

@Controller('api/v0/twins')
class TwinController {
  @Get('a')
  @Access('misc', 'api.things.list')
  a(): void {}
}

/** The registry of an application made of these controllers, started as the api starts. */
async function registry(...controllers: Array<new () => unknown>): Promise<RouteAccessRegistry> {
  @Module({ imports: [DiscoveryModule], controllers, providers: [RouteAccessRegistry] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, {
    logger: false,
    abortOnError: false,
  });
  const routes = app.get(RouteAccessRegistry);
  await app.close();
  return routes;
}

describe('RouteAccessRegistry', () => {
  it('reads every route: category, name, method and path template; public routes need none', async () => {
    const routes = await registry(DeclaredController, PublicController);
    expect(routes.entries()).toEqual([
      {
        category: 'misc',
        route: 'api.things.list',
        audited: false,
        method: 'GET',
        path: '/api/v0/things/',
      },
      {
        category: 'billing_read',
        route: 'api.things.export',
        audited: true,
        method: 'GET',
        path: '/api/v0/things/export/',
      },
      {
        category: 'misc',
        route: 'api.things.update',
        audited: false,
        method: 'PUT',
        path: '/api/v0/things/{id}/',
      },
    ]);
    expect(routes.categoryOf('api.things.update')).toBe('misc');
    expect(routes.categoryOf('api.nothing')).toBeUndefined();
  });

  it('refuses to start with a route that declares no permission, naming it', async () => {
    await expect(registry(DeclaredController, UndeclaredController)).rejects.toThrow(
      UndeclaredRouteAccessError,
    );
    await expect(registry(UndeclaredController)).rejects.toThrow(
      /DELETE \/api\/v0\/forgotten\/\{id\}\/ \(UndeclaredController\.remove\)/,
    );
  });

  it('refuses two routes under one name', async () => {
    await expect(registry(DeclaredController, TwinController)).rejects.toThrow(
      /GET \/api\/v0\/(twins\/a|things)\/: the name api\.things\.list is also GET/,
    );
  });
});
