import { InlineUnitOfWork } from '@app/platform/testing';
import { accessRepositoriesContract } from './access-repositories.contract';
import { InMemoryCredentialCache } from './in-memory-credential-cache';
import {
  InMemoryApiKeyRepository,
  InMemoryCredentialRepository,
  InMemoryCredentialUseRepository,
  InMemorySessionRepository,
} from './in-memory-credentials';
import { InMemoryUserRepository } from './in-memory-users';

describe('InMemoryApiKeyRepository, InMemorySessionRepository, InMemoryCredentialUseRepository', () => {
  accessRepositoriesContract(async () => {
    const cache = new InMemoryCredentialCache();
    const users = new InMemoryUserRepository(cache);
    const credentials = new InMemoryCredentialRepository(users, cache);
    let n = 0;
    return {
      credentials,
      apiKeys: new InMemoryApiKeyRepository(credentials),
      sessions: new InMemorySessionRepository(credentials),
      uses: new InMemoryCredentialUseRepository(credentials),
      uow: new InlineUnitOfWork(),
      cache,
      newUser: async () => (await users.create({ email: `access-${(n += 1)}@example.test` })).id,
      unique: 'unit',
    };
  });
});
