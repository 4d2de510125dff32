import { Environment, loadPlatformConfig } from '@app/platform';
import { ManualClock, SeededRandomSource, testSecretKeeper } from '@app/platform/testing';
import { CredentialIssuer } from '../application/credential-issuer';
import { InMemoryCredentialCache } from './in-memory-credential-cache';
import { InMemoryCredentialRepository, InMemoryTeamRepository } from './in-memory-credentials';
import { InMemoryUserRepository } from './in-memory-users';
import { FakePasswordHasher } from './fake-password-hasher';

/** The accounts fakes wired together, as the module wires the real adapters. */
export function accountsKit(clock = new ManualClock(Date.UTC(2026, 0, 1, 12))) {
  const cache = new InMemoryCredentialCache();
  const users = new InMemoryUserRepository(cache, () => clock.now());
  const credentials = new InMemoryCredentialRepository(users, cache);
  const teams = new InMemoryTeamRepository();
  const config = loadPlatformConfig(new Environment({}));
  const issuer = new CredentialIssuer(
    credentials,
    testSecretKeeper(),
    new SeededRandomSource(),
    clock,
    config,
  );
  return {
    clock,
    cache,
    users,
    credentials,
    teams,
    issuer,
    config,
    hasher: new FakePasswordHasher(),
  };
}
