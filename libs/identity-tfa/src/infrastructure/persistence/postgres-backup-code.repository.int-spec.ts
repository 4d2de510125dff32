import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { backupCodeRepositoryContract } from '../../testing/backup-code-repository.contract';
import { PostgresBackupCodeRepository } from './postgres-backup-code.repository';
import { TestUsers } from '@app/accounts/testing';

describe('PostgresBackupCodeRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let backupCodes: PostgresBackupCodeRepository;
  let users: TestUsers;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    backupCodes = new PostgresBackupCodeRepository(new TransactionalEntityManager(dataSource));
    users = new TestUsers(dataSource, 'backup-codes');
  });
  afterAll(async () => {
    await users.removeAll();
    await dataSource.destroy();
  });

  backupCodeRepositoryContract('PostgresBackupCodeRepository', () => ({
    backupCodes,
    newUserId: () => users.create(),
  }));
});
