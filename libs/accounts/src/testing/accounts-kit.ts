import { Environment, FULL_PERMISSIONS, loadPlatformConfig } from '@app/platform';
import { ManualClock, SeededRandomSource, testSecretKeeper } from '@app/platform/testing';
import { CredentialIssuer } from '../application/credentials/credential-issuer.service';
import { CredentialRecord } from '../domain/credential';
import { InMemoryCredentialCache } from './in-memory-credential-cache';
import {
  InMemoryApiKeyRepository,
  InMemoryCredentialRepository,
  InMemoryCredentialUseRepository,
  InMemorySessionRepository,
  InMemoryTeamRepository,
} from './in-memory-credentials';
import { InMemoryUserRepository } from './in-memory-users';
import { FakePasswordHasher } from './fake-password-hasher';

/** An API key `id` of `userId` with every permission, unless `fields` say otherwise. */
export function testCredentialRecord(
  id: number,
  userId: number,
  fields: Partial<CredentialRecord> = {},
): CredentialRecord {
  return {
    id,
    kind: 'api_key',
    userId,
    teamId: null,
    isAdminSession: false,
    expiresAt: null,
    revokedAt: null,
    isAdminUser: false,
    permissions: FULL_PERMISSIONS,
    ipAllowlist: null,
    ...fields,
  };
}

/** The accounts fakes wired together, as the module wires the real adapters. */
export function accountsKit(clock = new ManualClock(Date.UTC(2026, 0, 1, 12))) {
  const cache = new InMemoryCredentialCache();
  const users = new InMemoryUserRepository(cache, () => clock.now());
  const credentials = new InMemoryCredentialRepository(users, cache, () => clock.now());
  const apiKeys = new InMemoryApiKeyRepository(credentials);
  const sessions = new InMemorySessionRepository(credentials);
  const credentialUses = new InMemoryCredentialUseRepository(credentials);
  const teams = new InMemoryTeamRepository();
  const config = loadPlatformConfig(new Environment({}));
  const issuer = new CredentialIssuer(
    credentials,
    apiKeys,
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
    apiKeys,
    sessions,
    credentialUses,
    teams,
    issuer,
    config,
    hasher: new FakePasswordHasher(),
  };
}
