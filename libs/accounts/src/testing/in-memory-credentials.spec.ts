import { credentialRepositoryContract } from './credential-repository.contract';
import { InMemoryCredentialCache } from './in-memory-credential-cache';
import { InMemoryCredentialRepository, InMemoryTeamRepository } from './in-memory-credentials';
import { InMemoryUserRepository } from './in-memory-users';

describe('InMemoryCredentialRepository and InMemoryTeamRepository', () => {
  credentialRepositoryContract(async () => {
    const cache = new InMemoryCredentialCache();
    const users = new InMemoryUserRepository(cache);
    let n = 0;
    return {
      credentials: new InMemoryCredentialRepository(users, cache),
      teams: new InMemoryTeamRepository(),
      cache,
      newUser: async (isAdmin) =>
        (await users.create({ email: `user-${(n += 1)}@example.test`, isAdmin })).id,
      unique: 'unit',
      teamId: 970_001,
    };
  });
});
