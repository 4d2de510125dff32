import { DynamicModule, Inject, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { LagTolerantReads } from '../../application/ports/lag-tolerant-reads.port';
import { UnitOfWork } from '../../application/ports/unit-of-work.port';
import { PlatformConfig } from '../../config/platform-config';
import { Lifecycle } from '../lifecycle';
import { PrometheusMetrics } from '../observability/prometheus-metrics';
import {
  dataSourceOptions,
  ensureDatabaseExists,
  hasPendingMigrations,
  runMigrations,
} from './database-setup';
import { connectionName, countProcesses, poolBudget, PoolProcessRole } from './pool-budget';
import { PrimaryOnlyReads, ReplicaReads } from './replica-reads';
import { TransactionalEntityManager, TypeormUnitOfWork } from './transactional-entity-manager';

/** Which process this is (api, worker, manage): its connections' name, its budget line. */
const PROCESS_ROLE = Symbol('database process role');

/**
 * PostgreSQL: the connection pool, the transactional manager every adapter writes through,
 * reads that may go to a replica, and the migrations, applied at start when
 * MIGRATIONS_RUN says so (readiness stays down while any is pending).
 */
@Module({})
export class DatabaseModule implements OnModuleInit {
  private readonly logger = new Logger('Platform');

  constructor(
    private readonly config: PlatformConfig,
    private readonly dataSource: DataSource,
    private readonly lifecycle: Lifecycle,
    private readonly metrics: PrometheusMetrics,
    private readonly reads: LagTolerantReads,
    @Inject(PROCESS_ROLE) private readonly role: PoolProcessRole,
  ) {}

  /** `role`: which process this is, in the connections' names and the budget line. */
  static forRoot(config: PlatformConfig, role: PoolProcessRole): DynamicModule {
    return {
      global: true,
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            await ensureDatabaseExists(config.databaseUrl);
            // Few, quick retries: an orchestrator restarts a failed start faster than we would wait.
            return {
              ...dataSourceOptions(config.databaseUrl, {
                ...config.database,
                applicationName: connectionName(role),
              }),
              autoLoadEntities: true,
              retryAttempts: 3,
              retryDelay: 1_000,
            };
          },
        }),
      ],
      providers: [
        { provide: PROCESS_ROLE, useValue: role },
        {
          provide: TransactionalEntityManager,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) =>
            new TransactionalEntityManager(dataSource, {
              // PGlite behind its socket is left to plain statements.
              preparedStatements: config.databasePreparedStatements && !config.embedded,
            }),
        },
        {
          provide: LagTolerantReads,
          inject: [TransactionalEntityManager, PrometheusMetrics],
          useFactory: (manager: TransactionalEntityManager, metrics: PrometheusMetrics) => {
            const served = (node: 'replica' | 'primary') => metrics.servedRead(node);
            if (!config.databaseReplicaUrl || config.embedded)
              return new PrimaryOnlyReads(manager, served);
            const reads = new ReplicaReads(config.databaseReplicaUrl, manager, {
              maxLagSeconds: config.databaseReplicaMaxLagSeconds,
              poolMax: config.database.poolMax,
              timeoutMs: config.databaseReplicaTimeoutMs,
              applicationName: connectionName(role),
              served,
            });
            metrics.watchPool('replica', reads.replicaPool, config.database.poolMax);
            metrics.watchReplica(reads);
            return reads;
          },
        },
        {
          provide: UnitOfWork,
          inject: [TransactionalEntityManager],
          useFactory: (manager: TransactionalEntityManager) => new TypeormUnitOfWork(manager),
        },
      ],
      exports: [TransactionalEntityManager, LagTolerantReads, UnitOfWork],
    };
  }

  async onModuleInit(): Promise<void> {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool | undefined;
    if (pool) this.metrics.watchPool('primary', pool, this.config.database.poolMax);
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
   * Every process opens up to DATABASE_POOL_MAX connections on the primary, every api as
   * many on the replica. Said at start, with a warning naming what to change when the
   * processes connected (or DATABASE_POOL_PROCESSES) would not fit, because the failure it
   * prevents (connections refused under load) only shows at peak. Operator commands are
   * short-lived and say nothing.
   */
  private async reportPoolBudget(): Promise<void> {
    const role = this.role;
    if (role === 'manage') return;
    let row: { max: number; reserved: number; names: string[] };
    try {
      [row] = await this.dataSource.query(
        `SELECT current_setting('max_connections')::int AS max,
                current_setting('superuser_reserved_connections')::int
                  + coalesce(current_setting('reserved_connections', true)::int, 0) AS reserved,
                coalesce(array_agg(DISTINCT application_name)
                           FILTER (WHERE application_name LIKE 'gpumarket-%'), '{}') AS names
           FROM pg_stat_activity WHERE datname = current_database()`,
      );
    } catch (error) {
      this.logger.warn(`Could not read max_connections: ${(error as Error).message}`);
      return;
    }
    const replica =
      role === 'api' && this.reads instanceof ReplicaReads ? await this.reads.serverSlots() : null;
    const report = poolBudget({
      poolMax: this.config.database.poolMax,
      declaredProcesses: this.config.database.processes,
      connected: countProcesses([...row.names, connectionName(role)]),
      primary: { maxConnections: row.max, reserved: row.reserved },
      replica,
    });
    if (report.fits) this.logger.log(report.text);
    else this.logger.warn(report.text);
  }
}
