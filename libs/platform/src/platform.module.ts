import {
  DynamicModule,
  Global,
  Logger,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FixtureRegistry } from './application/fixture-registry';
import { OperatorCommandRegistry } from './application/operator-command-registry';
import { Clock } from './application/ports/clock.port';
import { RandomSource } from './application/ports/random-source.port';
import { RateLimiter } from './application/ports/rate-limiter.port';
import { SecretKeeper } from './application/ports/secret-keeper.port';
import { UnitOfWork } from './application/ports/unit-of-work.port';
import { Environment } from './config/environment';
import { loadPlatformConfig, PlatformConfig } from './config/platform-config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { ErrorCatalog } from './http/error-catalog';
import { HealthController } from './http/health.controller';
import { MetricsController } from './http/metrics.controller';
import { RequestMetricsMiddleware } from './http/request-metrics.middleware';
import { Metrics } from './application/ports/metrics.port';
import { PrometheusMetrics } from './infrastructure/metrics/prometheus-metrics';
import { createValidationPipe } from './http/validation';
import {
  CryptoRandomSource,
  NodeSecretKeeper,
  SystemClock,
} from './infrastructure/crypto/node-crypto.adapters';
import {
  dataSourceOptions,
  ensureDatabaseExists,
  hasPendingMigrations,
  runMigrations,
} from './infrastructure/database/database-setup';
import {
  TransactionalEntityManager,
  TypeormUnitOfWork,
} from './infrastructure/database/transactional-entity-manager';
import { Lifecycle } from './infrastructure/lifecycle';
import { LagTolerantReads } from './application/ports/lag-tolerant-reads.port';
import { PrimaryOnlyReads, ReplicaReads } from './infrastructure/database/replica-reads';
import { QueueRegistry } from './infrastructure/queue/queue-registry';
import { createInProcessRedis } from './infrastructure/embedded/in-process-redis';
import { RedisConnectionFactory } from './infrastructure/redis/redis-connection.factory';
import { RedisRateLimiter } from './infrastructure/redis/redis-rate-limiter';

/** Header names whose values never reach a log line. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-session-key"]',
  'res.headers["set-cookie"]',
  'res.headers["x-session-key"]',
];

/** One line an event on a terminal: time, level, [context] message, then the fields; colours when the terminal has them. */
const PRETTY_TRANSPORT = {
  target: 'pino-pretty',
  options: {
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
  },
};

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

@Global()
@Module({})
export class PlatformModule implements NestModule, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');

  constructor(
    private readonly config: PlatformConfig,
    private readonly dataSource: DataSource,
    private readonly lifecycle: Lifecycle,
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
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            ...(config.logFormat === 'pretty' ? { transport: PRETTY_TRANSPORT } : {}),
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            genReqId: (request, response) => {
              const given = request.headers['x-request-id'];
              const id =
                typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
              response.setHeader('X-Request-Id', id);
              return id;
            },
            serializers: {
              // Paths only: query strings are not needed to trace a request.
              req: (request: { id: string; method: string; url: string }) => ({
                id: request.id,
                method: request.method,
                path: request.url.split('?')[0],
              }),
            },
            autoLogging: { ignore: (request) => (request.url ?? '').startsWith('/health') },
          },
        }),
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            await ensureDatabaseExists(config.databaseUrl);
            // Few, quick retries: an orchestrator restarts a failed start faster than we would wait.
            return {
              ...dataSourceOptions(config.databaseUrl, config.database),
              autoLoadEntities: true,
              retryAttempts: 3,
              retryDelay: 1_000,
            };
          },
        }),
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
        { provide: RedisConnectionFactory, useValue: new RedisConnectionFactory(config.redis) },
        {
          provide: Redis,
          inject: [RedisConnectionFactory],
          useFactory: (factory: RedisConnectionFactory) =>
            config.embedded ? createInProcessRedis() : factory.createCommandConnection('commands'),
        },
        {
          provide: RateLimiter,
          inject: [Redis],
          useFactory: (redis: Redis) => new RedisRateLimiter(redis),
        },
        {
          provide: QueueRegistry,
          inject: [RedisConnectionFactory],
          useFactory: (factory: RedisConnectionFactory) =>
            // A worker's close gets most of the shutdown bound; queues and Redis the rest.
            new QueueRegistry(
              factory,
              config.embedded,
              Math.max(500, config.shutdownTimeoutMs - 5_000),
            ),
        },
        Lifecycle,
        ErrorCatalog,
        {
          provide: PrometheusMetrics,
          inject: [QueueRegistry],
          useFactory: (queues: QueueRegistry) => new PrometheusMetrics(queues),
        },
        { provide: Metrics, useExisting: PrometheusMetrics },
        {
          provide: TransactionalEntityManager,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => new TransactionalEntityManager(dataSource),
        },
        {
          provide: LagTolerantReads,
          inject: [TransactionalEntityManager],
          useFactory: (manager: TransactionalEntityManager) =>
            config.databaseReplicaUrl && !config.embedded
              ? new ReplicaReads(
                  config.databaseReplicaUrl,
                  manager,
                  config.databaseReplicaMaxLagSeconds,
                  config.database.poolMax,
                )
              : new PrimaryOnlyReads(manager),
        },
        {
          provide: UnitOfWork,
          inject: [TransactionalEntityManager],
          useFactory: (manager: TransactionalEntityManager) => new TypeormUnitOfWork(manager),
        },
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
        RedisConnectionFactory,
        Redis,
        RateLimiter,
        QueueRegistry,
        Lifecycle,
        ErrorCatalog,
        Metrics,
        PrometheusMetrics,
        TransactionalEntityManager,
        LagTolerantReads,
        UnitOfWork,
        FixtureRegistry,
        OperatorCommandRegistry,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestMetricsMiddleware).forRoutes('*');
  }

  async onModuleInit(): Promise<void> {
    if (
      this.config.usingDevelopmentSecrets &&
      !this.config.isProduction &&
      this.config.nodeEnv !== 'test'
    ) {
      this.logger.warn(
        'Using built-in DEVELOPMENT secrets: set SECRET_HMAC_KEY and ENCRYPTION_KEYS for real use.',
      );
    }
    if (this.config.migrationsRun) {
      const applied = await runMigrations(this.dataSource);
      if (applied.length > 0) this.logger.log(`Applied migrations: ${applied.join(', ')}`);
    }
    await this.reportPoolBudget();
    this.lifecycle.checkMigrations = () => hasPendingMigrations(this.dataSource);
    this.lifecycle.migrationsPending = await hasPendingMigrations(this.dataSource);
    if (this.lifecycle.migrationsPending) {
      this.logger.warn(
        'Migrations are pending: readiness stays down until `npm run migration:run`.',
      );
    }
  }

  /**
   * Every process opens up to DATABASE_POOL_MAX connections; DATABASE_POOL_PROCESSES of them
   * share the server. Said at start, with a warning when the sum would not fit, because the
   * failure it prevents (connections refused under load) only shows at peak.
   */
  private async reportPoolBudget(): Promise<void> {
    const { poolMax, processes } = this.config.database;
    let server: { max: number; reserved: number };
    try {
      const [row] = await this.dataSource.query(
        `SELECT current_setting('max_connections')::int AS max,
                current_setting('superuser_reserved_connections')::int
                  + coalesce(current_setting('reserved_connections', true)::int, 0) AS reserved`,
      );
      server = row;
    } catch (error) {
      this.logger.warn(`Could not read max_connections: ${(error as Error).message}`);
      return;
    }
    const budget = poolMax * processes;
    const usable = server.max - server.reserved;
    const text =
      `Database pool budget: ${poolMax} per process x ${processes} processes = ${budget} ` +
      `of ${usable} usable connections (max_connections ${server.max}, ${server.reserved} reserved)`;
    if (budget > usable) {
      this.logger.warn(
        `${text}: does not fit; lower DATABASE_POOL_MAX, raise max_connections or put PgBouncer in front`,
      );
    } else {
      this.logger.log(text);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queues.closeAll();
    await this.redisConnections.closeAll();
    if (this.reads instanceof ReplicaReads) await this.reads.close();
  }
}
