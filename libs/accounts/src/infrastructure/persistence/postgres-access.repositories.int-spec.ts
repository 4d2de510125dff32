import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { accessRepositoriesContract } from '../../testing/access-repositories.contract';
import { InMemoryCredentialCache } from '../../testing/in-memory-credential-cache';
import { PostgresApiKeyRepository } from './postgres-api-key.repository';
import { PostgresCredentialUseRepository } from './postgres-credential-use.repository';
import { PostgresCredentialRepository } from './postgres-credential.repository';
import { PostgresSessionRepository } from './postgres-session.repository';
import { PostgresUserRepository } from './postgres-user.repository';

describe('PostgresApiKeyRepository, PostgresSessionRepository, PostgresCredentialUseRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const unique = randomUUID().slice(0, 8);
  const users: number[] = [];

  accessRepositoriesContract(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    const cache = new InMemoryCredentialCache();
    const userRepository = new PostgresUserRepository(tx, cache);
    return {
      credentials: new PostgresCredentialRepository(tx, cache),
      apiKeys: new PostgresApiKeyRepository(tx, cache),
      sessions: new PostgresSessionRepository(tx),
      uses: new PostgresCredentialUseRepository(tx),
      uow: new TypeormUnitOfWork(tx),
      cache,
      newUser: async () => {
        const email = `access-${users.length}-${unique}@example.test`;
        const { id } = await userRepository.create({ email });
        users.push(id);
        return id;
      },
      unique,
    };
  });

  // Keys and sessions go with their users (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.destroy();
  });
});
