import { Environment, loadPlatformConfig } from '@app/platform';
import { ManualClock, ScriptedRandomSource, testSecretKeeper } from '@app/platform/testing';
import { CredentialRecord } from '../../domain/credential';
import {
  InMemoryApiKeyRepository,
  InMemoryCredentialRepository,
} from '../../testing/in-memory-credentials';
import { InMemoryUserRepository } from '../../testing/in-memory-users';
import { CredentialIssuer } from './credential-issuer.service';
import { CredentialRepository, NewApiKey, NewSession } from '../ports/credential.repository.port';

class RecordingCredentials extends CredentialRepository {
  readonly apiKeys: NewApiKey[] = [];
  readonly sessions: NewSession[] = [];

  async findByHash(): Promise<CredentialRecord | null> {
    return null;
  }
  async createApiKey(key: NewApiKey): Promise<number> {
    return this.apiKeys.push(key);
  }
  async upsertApiKey(key: NewApiKey): Promise<number> {
    return this.apiKeys.push(key);
  }
  async createSession(session: NewSession): Promise<number> {
    return this.sessions.push(session);
  }
  async revokeSession(): Promise<boolean> {
    return false;
  }
  async revokeSessionsOf(): Promise<number> {
    return 0;
  }
}

/** A 256-bit draw whose base64url form began with '-'. */
const dashLeadingDraw = () => Buffer.concat([Buffer.from([0xfb]), Buffer.alloc(31, 0x5a)]);

describe('CredentialIssuer', () => {
  function issuer() {
    const random = new ScriptedRandomSource();
    const credentials = new RecordingCredentials();
    const config = loadPlatformConfig(new Environment({}));
    const issue = new CredentialIssuer(
      credentials,
      new InMemoryApiKeyRepository(new InMemoryCredentialRepository(new InMemoryUserRepository())),
      testSecretKeeper(),
      random,
      new ManualClock(),
      config,
    );
    return { random, credentials, issue };
  }

  it('makes API keys and session keys of 256 bits in letters and digits after their prefix', async () => {
    const { random, credentials, issue } = issuer();
    random.nextBytes(dashLeadingDraw());
    const apiKey = await issue.issueApiKey(3);
    expect(random.pending).toBe(0);
    expect(apiKey).toMatch(/^gmk_[A-Za-z0-9]{43}$/);
    expect(credentials.apiKeys[0]).toMatchObject({ keyPrefix: apiKey.slice(0, 8) });

    random.nextBytes(dashLeadingDraw());
    const { sessionKey } = await issue.issueSession(3);
    expect(random.pending).toBe(0);
    expect(sessionKey).toMatch(/^gms_[A-Za-z0-9]{43}$/);
    expect(credentials.sessions[0].keyHash).toBe(issue.fingerprint(sessionKey));
  });
});
