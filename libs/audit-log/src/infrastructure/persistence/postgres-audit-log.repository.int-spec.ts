import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { auditLogRepositoryContract } from '../../testing/audit-log-repository.contract';
import { PostgresAuditLogRepository } from './postgres-audit-log.repository';

describe('PostgresAuditLogRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const unique = randomUUID().slice(0, 8);
  const users: number[] = [];

  auditLogRepositoryContract(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    return {
      entries: new PostgresAuditLogRepository(new TransactionalEntityManager(dataSource)),
      newUser: async () => {
        const [{ id }] = await dataSource.query(
          `INSERT INTO users (email) VALUES ($1) RETURNING id`,
          [`audit-${users.length}-${unique}@example.test`],
        );
        users.push(id);
        return id;
      },
      teamId: 970_301,
    };
  });

  // Entries go with their users (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.destroy();
  });
});
