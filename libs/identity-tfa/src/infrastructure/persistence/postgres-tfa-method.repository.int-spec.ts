import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { tfaMethodRepositoryContract } from '../../testing/tfa-method-repository.contract';
import { PostgresTfaMethodRepository } from './postgres-tfa-method.repository';
import { TestUsers } from '@app/accounts/testing';

describe('PostgresTfaMethodRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let methods: PostgresTfaMethodRepository;
  let users: TestUsers;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    methods = new PostgresTfaMethodRepository(new TransactionalEntityManager(dataSource));
    users = new TestUsers(dataSource, 'tfa-methods');
  });
  afterAll(async () => {
    await users.removeAll();
    await dataSource.destroy();
  });

  tfaMethodRepositoryContract('PostgresTfaMethodRepository', () => ({
    methods,
    newUserId: () => users.create(),
  }));
});
