import { DynamicModule, Logger, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LagTolerantReads } from '../../application/ports/lag-tolerant-reads.port';
import { UnitOfWork } from '../../application/ports/unit-of-work.port';
import { PlatformConfig } from '../../config/platform-config';
import { Lifecycle } from '../lifecycle';
import {
  dataSourceOptions,
  ensureDatabaseExists,
  hasPendingMigrations,
  runMigrations,
} from './database-setup';
import { PrimaryOnlyReads, ReplicaReads } from './replica-reads';
import { TransactionalEntityManager, TypeormUnitOfWork } from './transactional-entity-manager';

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
  ) {}

  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      global: true,
      module: DatabaseModule,
      imports: [
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
      ],
      providers: [
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
      ],
      exports: [TransactionalEntityManager, LagTolerantReads, UnitOfWork],
    };
  }

  async onModuleInit(): Promise<void> {
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
}
