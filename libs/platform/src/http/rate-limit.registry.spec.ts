import { Controller, Get, Module, Post } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { ConfigError } from '../config/config-error';
import { Environment } from '../config/environment';
import { loadPlatformConfig, PlatformConfig } from '../config/platform-config';
import { StartupError } from '../config/startup-error';
import { startupFailureMessage } from '../infrastructure/startup-checks';
import {
  defineRateLimits,
  RateLimitRegistry,
  RateLimitTable,
  UnregisteredRateLimitError,
} from './rate-limit.registry';
import { RateLimit, SecurityWrite } from './route-policy.decorators';

const THINGS_RATE_LIMITS = defineRateLimits({
  things: { minimumSeconds: 1.5, env: 'RATE_LIMIT_THINGS' },
  things_export: { minimumSeconds: 10, env: 'RATE_LIMIT_THINGS_EXPORT' },
});

@Controller('api/v0/things')
class ThingsController {
  @Get()
  @RateLimit('things')
  list(): void {}

  @Get('export')
  @RateLimit('things_export', { spentOnlyWhenServed: true })
  export(): void {}

  @Post()
  @SecurityWrite()
  create(): void {}

  @Get('free')
  free(): void {}
}

@Controller('api/v0/misspelt')
class MisspeltController {
  @Get(['a', 'b'])
  @RateLimit('thigns')
  a(): void {}

  @Post()
  @RateLimit('nobody')
  b(): void {}
}

/**
 * The registry of an application made of these controllers and of modules registering
 * these tables in their constructors, started as the api starts (lifecycle hooks included).
 */
async function start(
  env: Record<string, string>,
  controllers: Array<new () => unknown>,
  ...tables: RateLimitTable[]
): Promise<RateLimitRegistry> {
  const environment = new Environment(env);
  @Module({
    imports: [DiscoveryModule],
    controllers,
    providers: [
      { provide: Environment, useValue: environment },
      { provide: PlatformConfig, useValue: loadPlatformConfig(environment) },
      RateLimitRegistry,
    ],
  })
  class AppModule {
    constructor(registry: RateLimitRegistry) {
      for (const table of tables) registry.register(table);
    }
  }
  const app = await NestFactory.createApplicationContext(AppModule, {
    logger: false,
    abortOnError: false,
  });
  const registry = app.get(RateLimitRegistry);
  await app.close();
  return registry;
}

describe('RateLimitRegistry', () => {
  // ThingsController's create() is on the platform's windowed budget, which needs no table.
  it("knows each registered bucket's default interval, and nothing else", async () => {
    const registry = await start({}, [ThingsController], THINGS_RATE_LIMITS);
    expect(registry.intervalOf('things')).toBe(1.5);
    expect(registry.intervalOf('things_export')).toBe(10);
    expect(registry.intervalOf('thigns')).toBeUndefined();
  });

  it('reads each bucket from its own variable; 0 turns one off', async () => {
    const registry = await start(
      { RATE_LIMIT_THINGS: '0.25', RATE_LIMIT_THINGS_EXPORT: '0' },
      [ThingsController],
      THINGS_RATE_LIMITS,
    );
    expect(registry.intervalOf('things')).toBe(0.25);
    expect(registry.intervalOf('things_export')).toBe(0);
  });

  it('refuses every bad value at once, naming each variable', async () => {
    const failure = start(
      { RATE_LIMIT_THINGS: '-1', RATE_LIMIT_THINGS_EXPORT: 'soon' },
      [ThingsController],
      THINGS_RATE_LIMITS,
    );
    await expect(failure).rejects.toThrow(ConfigError);
    await expect(failure).rejects.toThrow(
      "Invalid configuration: RATE_LIMIT_THINGS must be a number >= 0 (got '-1'); " +
        "RATE_LIMIT_THINGS_EXPORT must be a number >= 0 (got 'soon')",
    );
  });

  it('refuses a bucket registered twice, or two buckets on one variable', async () => {
    await expect(
      start({}, [], THINGS_RATE_LIMITS, defineRateLimits({ things: THINGS_RATE_LIMITS.things })),
    ).rejects.toThrow(/the rate-limit bucket 'things' is registered twice/);
    await expect(
      start({}, [], defineRateLimits({ a: { minimumSeconds: 1, env: 'RATE_LIMIT_X' } }), {
        b: { minimumSeconds: 1, env: 'RATE_LIMIT_X' },
      }),
    ).rejects.toThrow(/RATE_LIMIT_X is the setting of 'a' and 'b'/);
    await expect(
      start({}, [], defineRateLimits({ security_writes: { minimumSeconds: 1, env: 'X' } })),
    ).rejects.toThrow(/'security_writes' is registered twice/);
  });

  it('stops the start on a route naming a bucket nobody registered, in one line naming each route', async () => {
    const failure = start({}, [ThingsController, MisspeltController], THINGS_RATE_LIMITS);
    await expect(failure).rejects.toThrow(UnregisteredRateLimitError);
    const error = await failure.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StartupError);
    // What the api prints when its start fails: the message as it is, no stack.
    expect(startupFailureMessage(error)).toBe(
      'Rate-limit buckets no module registers (declare them with defineRateLimits and ' +
        'register the table with the RateLimitRegistry, docs/architecture.md): ' +
        "GET /api/v0/misspelt/a/ (MisspeltController.a) names 'thigns'; " +
        "GET /api/v0/misspelt/b/ (MisspeltController.a) names 'thigns'; " +
        "POST /api/v0/misspelt/ (MisspeltController.b) names 'nobody'",
    );
  });

  it('stops the start even with RATE_LIMITS=off: the mistake is in the code', async () => {
    await expect(start({ RATE_LIMITS: 'off' }, [MisspeltController])).rejects.toThrow(
      UnregisteredRateLimitError,
    );
  });
});
