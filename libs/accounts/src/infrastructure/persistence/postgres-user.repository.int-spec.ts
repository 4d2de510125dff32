import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { InMemoryCredentialCache } from '../../testing/in-memory-credential-cache';
import { userRepositoryContract } from '../../testing/user-repository.contract';
import { PostgresUserRepository } from './postgres-user.repository';

// Explicit user ids owned by this file: 970101-970110.
const FIRST_ID = 970_100;

describe('PostgresUserRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const unique = randomUUID().slice(0, 8);

  userRepositoryContract(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    const cache = new InMemoryCredentialCache();
    return { users: new PostgresUserRepository(tx, cache), cache, unique, firstId: FIRST_ID };
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE email LIKE $1 OR id BETWEEN $2 AND $3`, [
      `%-${unique}@example.test`,
      FIRST_ID + 1,
      FIRST_ID + 10,
    ]);
    await dataSource.destroy();
  });
});
