import {
  DynamicModule,
  Global,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { FixtureRegistry } from './application/fixture-registry';
import { OperatorCommandRegistry } from './application/operator-command-registry';
import { Clock } from './application/ports/clock.port';
import { LagTolerantReads } from './application/ports/lag-tolerant-reads.port';
import { RandomSource } from './application/ports/random-source.port';
import { SecretKeeper } from './application/ports/secret-keeper.port';
import { UnitOfWork } from './application/ports/unit-of-work.port';
import { Environment } from './config/environment';
import { loadPlatformConfig, PlatformConfig } from './config/platform-config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { ErrorCatalog } from './http/error-catalog';
import { HealthController } from './http/health.controller';
import { MetricsController } from './http/metrics.controller';
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
import { QueueModule } from './infrastructure/queue/queue.module';
import { QueueRegistry } from './infrastructure/queue/queue-registry';
import { RedisModule } from './infrastructure/redis/redis.module';
import { RedisConnectionFactory } from './infrastructure/redis/redis-connection.factory';

export interface PlatformOptions {
  env?: Environment;
  /** Serve /health endpoints (the api); the worker and operator commands do not. */
  http?: boolean;
  /**
   * Replaces the CSPRNG. For tests that must reproduce a particular random draw (a token
   * whose old encoding began with '-'); production never sets it.
   */
  randomSource?: RandomSource;
}

/**
 * What every process shares, composed from the database, Redis, queue and observability
 * modules, plus configuration, clock, randomness, secrets, the error catalog, the fixture
 * and operator-command registries, and (for the api) health and metrics routes. Global:
 * contexts inject its exports without importing it.
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
    return {
      module: PlatformModule,
      imports: [
        ObservabilityModule.forRoot(config),
        DatabaseModule.forRoot(config),
        RedisModule.forRoot(config),
        QueueModule.forRoot(config),
        ...(options.http === false
          ? []
          : [TerminusModule.forRoot({ errorLogStyle: 'pretty', logger: false })]),
      ],
      controllers: options.http === false ? [] : [HealthController, MetricsController],
      providers: [
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
