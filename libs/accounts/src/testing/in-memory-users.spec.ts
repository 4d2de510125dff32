import { InMemoryCredentialCache } from './in-memory-credential-cache';
import { InMemoryUserRepository } from './in-memory-users';
import { userRepositoryContract } from './user-repository.contract';

describe('InMemoryUserRepository', () => {
  userRepositoryContract(async () => {
    const cache = new InMemoryCredentialCache();
    return { users: new InMemoryUserRepository(cache), cache, unique: 'unit', firstId: 970_000 };
  });
});
