import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ConfigReader } from '../config/config-reader';
import { Environment } from '../config/environment';
import { PlatformConfig } from '../config/platform-config';
import { StartupError } from '../config/startup-error';
import { controllerRoutes } from './controller-routes';
import { RATE_LIMIT_BUCKET } from './route-policy.decorators';

/** A per-endpoint minimum interval between two requests of one caller. */
export interface RateLimitDefinition {
  /** The default, in seconds; 0 turns the limit off. */
  minimumSeconds: number;
  /** The environment variable that overrides it (`RATE_LIMIT_CHARGES`). */
  env: string;
}

/** A context's buckets by name: what `@RateLimit(name)` on its routes may name. */
export type RateLimitTable = Readonly<Record<string, RateLimitDefinition>>;

/** Declares a context's buckets; its module registers the table with the RateLimitRegistry. */
export function defineRateLimits<const T extends RateLimitTable>(table: T): T {
  return table;
}

/** A route whose `@RateLimit` names a bucket no module registered: the process must not start. */
export class UnregisteredRateLimitError extends StartupError {
  constructor(problems: string[]) {
    super(
      `Rate-limit buckets no module registers (declare them with defineRateLimits and ` +
        `register the table with the RateLimitRegistry, docs/architecture.md): ${problems.join('; ')}`,
    );
    this.name = 'UnregisteredRateLimitError';
  }
}

/**
 * The rate-limit buckets of every context, as the rate-limit guard reads them. Each context
 * registers its table at module construction, as it registers its error table; at start
 * the registry reads each bucket's setting from the environment and refuses to let the
 * process start when a route's `@RateLimit` names a bucket nobody registered (a limit that
 * would silently do nothing). The platform's windowed budgets (`security_writes`) are
 * known from its own configuration.
 */
@Injectable()
export class RateLimitRegistry implements OnModuleInit {
  private readonly tables: RateLimitTable[] = [];
  private intervals = new Map<string, number>();

  constructor(
    private readonly env: Environment,
    private readonly config: PlatformConfig,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  register(table: RateLimitTable): void {
    this.tables.push(table);
  }

  /** The bucket's minimum interval in seconds (0: off), or undefined for no such bucket. */
  intervalOf(bucket: string): number | undefined {
    return this.intervals.get(bucket);
  }

  onModuleInit(): void {
    this.intervals = this.readSettings();
    const problems: string[] = [];
    for (const { controller, methodName, handler, method, paths } of controllerRoutes(
      this.discovery,
      this.scanner,
    )) {
      const bucket = this.reflector.get<string | undefined>(RATE_LIMIT_BUCKET, handler as never);
      if (bucket === undefined || this.knows(bucket)) continue;
      for (const path of paths) {
        problems.push(`${method} ${path} (${controller.name}.${methodName}) names '${bucket}'`);
      }
    }
    if (problems.length > 0) throw new UnregisteredRateLimitError(problems);
  }

  private knows(bucket: string): boolean {
    return this.intervals.has(bucket) || bucket in this.config.rateLimits.windows;
  }

  /** Every registered bucket's interval, its variable read; every problem at once. */
  private readSettings(): Map<string, number> {
    const read = new ConfigReader(this.env);
    const intervals = new Map<string, number>();
    const variables = new Map<string, string>();
    for (const table of this.tables) {
      for (const [bucket, { minimumSeconds, env }] of Object.entries(table)) {
        if (intervals.has(bucket) || bucket in this.config.rateLimits.windows) {
          read.problem(`the rate-limit bucket '${bucket}' is registered twice`);
        }
        const owner = variables.get(env);
        if (owner !== undefined)
          read.problem(`${env} is the setting of '${owner}' and '${bucket}'`);
        variables.set(env, bucket);
        intervals.set(bucket, read.number(env, minimumSeconds, 0));
      }
    }
    read.done();
    return intervals;
  }
}
