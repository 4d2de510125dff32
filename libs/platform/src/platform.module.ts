import {
  DynamicModule,
  Global,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { APP_FILTER, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { FixtureRegistry } from './application/fixture-registry.service';
import { AccessCatalog } from './application/ports/access-catalog.port';
import { OperatorCommandRegistry } from './application/operator-command-registry.service';
import { Clock } from './application/ports/clock.port';
import { LagTolerantReads } from './application/ports/lag-tolerant-reads.port';
import { RandomSource } from './application/ports/random-source.port';
import { SecretKeeper } from './application/ports/secret-keeper.port';
import { UnitOfWork } from './application/ports/unit-of-work.port';
import { Environment } from './config/environment';
import {
  DEFAULT_METRICS_PORTS,
  loadPlatformConfig,
  PlatformConfig,
} from './config/platform-config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { ErrorCatalog } from './http/error-catalog';
import { HealthController } from './http/health.controller';
import { MetricsListener, MetricsRole } from './http/metrics-listener';
import { RateLimitRegistry } from './http/rate-limit.registry';
import { Readiness } from './http/readiness';
import { RouteAccessRegistry } from './http/route-access.registry';
import { createValidationPipe } from './http/validation';
import {
  CryptoRandomSource,
  NodeSecretKeeper,
  SystemClock,
} from './infrastructure/crypto/node-crypto.adapters';
import { DatabaseModule } from './infrastructure/database/database.module';
import { ReplicaReads } from './infrastructure/database/replica-reads';
import { Lifecycle } from './infrastructure/lifecycle';
import { ObservabilityModule } from './infrastructure/observability/observability.module';
import { PrometheusMetrics } from './infrastructure/observability/prometheus-metrics';
import { QueueModule } from './infrastructure/queue/queue.module';
import { QueueRegistry } from './infrastructure/queue/queue-registry';
import { RedisModule } from './infrastructure/redis/redis.module';
import { RedisConnectionFactory } from './infrastructure/redis/redis-connection.factory';

export interface PlatformOptions {
  env?: Environment;
  /** Serve /health endpoints (the api); the worker and operator commands do not. */
  http?: boolean;
  /**
   * Serve GET /metrics on the metrics listener (METRICS_HOST:METRICS_PORT) as this process:
   * the api, or the worker (which serves its probes there too). Operator commands serve none.
   */
  metrics?: MetricsRole;
  /**
   * Replaces the CSPRNG. For tests that must reproduce a particular random draw (a token
   * whose old encoding began with '-'); production never sets it.
   */
  randomSource?: RandomSource;
}

/**
 * What every process shares, composed from the database, Redis, queue and observability
 * modules, plus configuration, clock, randomness, secrets, the error catalog, the fixture
 * and operator-command registries, the catalog of routes and their permissions, the
 * rate-limit buckets, and (for the api) health and metrics routes. Global: contexts inject
 * its exports without importing it.
 */
@Global()
@Module({})
export class PlatformModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');

  constructor(
    private readonly config: PlatformConfig,
    private readonly redisConnections: RedisConnectionFactory,
    private readonly queues: QueueRegistry,
    private readonly reads: LagTolerantReads,
  ) {}

  static forRoot(options: PlatformOptions = {}): DynamicModule {
    const env = options.env ?? new Environment();
    const config = loadPlatformConfig(env);
    const http = options.http !== false;
    const metrics = options.metrics;
    return {
      module: PlatformModule,
      imports: [
        ObservabilityModule.forRoot(config),
        DatabaseModule.forRoot(config, metrics ?? 'manage'),
        RedisModule.forRoot(config),
        QueueModule.forRoot(config),
        DiscoveryModule,
        ...(http || metrics === 'worker'
          ? [TerminusModule.forRoot({ errorLogStyle: 'pretty', logger: false })]
          : []),
      ],
      controllers: http ? [HealthController] : [],
      providers: [
        ...(http || metrics === 'worker' ? [Readiness] : []),
        ...(metrics
          ? [
              {
                provide: MetricsListener,
                inject: [
                  PrometheusMetrics,
                  Lifecycle,
                  ...(metrics === 'worker' ? [Readiness] : []),
                ],
                useFactory: (
                  prometheus: PrometheusMetrics,
                  lifecycle: Lifecycle,
                  readiness?: Readiness,
                ) =>
                  new MetricsListener(
                    prometheus,
                    lifecycle,
                    metrics,
                    config.metricsHost,
                    config.metricsPort ?? DEFAULT_METRICS_PORTS[metrics],
                    readiness ?? null,
                  ),
              },
            ]
          : []),
        { provide: Environment, useValue: env },
        { provide: PlatformConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
        options.randomSource
          ? { provide: RandomSource, useValue: options.randomSource }
          : { provide: RandomSource, useClass: CryptoRandomSource },
        {
          provide: SecretKeeper,
          useValue: new NodeSecretKeeper(config.hmacKeys, config.encryptionKeys),
        },
        Lifecycle,
        ErrorCatalog,
        {
          provide: FixtureRegistry,
          inject: [UnitOfWork],
          useFactory: (uow: UnitOfWork) => new FixtureRegistry(uow),
        },
        OperatorCommandRegistry,
        RouteAccessRegistry,
        RateLimitRegistry,
        { provide: AccessCatalog, useExisting: RouteAccessRegistry },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useFactory: () => createValidationPipe() },
      ],
      exports: [
        Environment,
        PlatformConfig,
        Clock,
        RandomSource,
        SecretKeeper,
        Lifecycle,
        ErrorCatalog,
        FixtureRegistry,
        OperatorCommandRegistry,
        AccessCatalog,
        RateLimitRegistry,
        ...(metrics ? [MetricsListener] : []),
      ],
    };
  }

  onModuleInit(): void {
    if (
      this.config.usingDevelopmentSecrets &&
      !this.config.isProduction &&
      this.config.nodeEnv !== 'test'
    ) {
      this.logger.warn(
        'Using built-in DEVELOPMENT secrets: set SECRET_HMAC_KEY and ENCRYPTION_KEYS for real use.',
      );
    }
  }

  /** In dependency order: queues first, then the Redis connections they run on. */
  async onApplicationShutdown(): Promise<void> {
    await this.queues.closeAll();
    await this.redisConnections.closeAll();
    if (this.reads instanceof ReplicaReads) await this.reads.close();
  }
}
