import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { securityNoticeRepositoryContract } from '../../testing/security-notice-repository.contract';
import { TestUsers } from '@app/accounts/testing';
import { PostgresSecurityEventRepository } from './postgres-security-event.repository';
import { PostgresSecurityNoticeRepository } from './postgres-security-notice.repository';

describe('PostgresSecurityNoticeRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let notices: PostgresSecurityNoticeRepository;
  let events: PostgresSecurityEventRepository;
  let users: TestUsers;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    notices = new PostgresSecurityNoticeRepository(tx);
    events = new PostgresSecurityEventRepository(tx);
    users = new TestUsers(dataSource, 'security-notices');
  });
  afterAll(async () => {
    await users.removeAll();
    await dataSource.destroy();
  });

  securityNoticeRepositoryContract('PostgresSecurityNoticeRepository', () => ({
    notices,
    events,
    newUserId: () => users.create(),
  }));
});
