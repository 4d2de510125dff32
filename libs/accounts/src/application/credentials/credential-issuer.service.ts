import { Injectable } from '@nestjs/common';
import { Clock, PlatformConfig, RandomSource, SecretKeeper } from '@app/platform';
import { ApiKey } from '../../domain/api-key';
import { keyPrefix } from '../../domain/credential';
import { SessionOrigin } from '../../domain/session';
import { ApiKeyRepository, NewManagedApiKey } from '../ports/api-key.repository.port';
import { CredentialRepository } from '../ports/credential.repository.port';

export const CREDENTIAL_FINGERPRINT = 'credential';

/** Makes API keys and session keys: 256 random bits, stored only as a keyed fingerprint. */
@Injectable()
export class CredentialIssuer {
  constructor(
    private readonly credentials: CredentialRepository,
    private readonly apiKeys: ApiKeyRepository,
    private readonly secrets: SecretKeeper,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    private readonly config: PlatformConfig,
  ) {}

  fingerprint(key: string): string {
    return this.secrets.fingerprint(CREDENTIAL_FINGERPRINT, key);
  }

  /** Every fingerprint a key may be stored under (one per SECRET_HMAC_KEY version), newest first. */
  fingerprints(key: string): string[] {
    return this.secrets.fingerprints(CREDENTIAL_FINGERPRINT, key);
  }

  /** A full key (operators, fixtures); `main` for a user's first key. */
  async issueApiKey(
    userId: number,
    teamId: number | null = null,
    explicitKey?: string,
    options: { main?: boolean } = {},
  ): Promise<string> {
    const key = explicitKey ?? this.newApiKey();
    const record = {
      userId,
      teamId,
      keyHash: this.fingerprint(key),
      keyPrefix: keyPrefix(key),
      main: options.main ?? false,
    };
    if (explicitKey) await this.credentials.upsertApiKey(record);
    else await this.credentials.createApiKey(record);
    return key;
  }

  /** A key its owner asked for (a name, permissions, an expiry): the key, shown once. */
  async issueManagedKey(
    spec: Omit<NewManagedApiKey, 'keyHash' | 'keyPrefix'>,
  ): Promise<{ key: string; apiKey: ApiKey }> {
    const key = this.newApiKey();
    const apiKey = await this.apiKeys.insert({
      ...spec,
      keyHash: this.fingerprint(key),
      keyPrefix: keyPrefix(key),
    });
    return { key, apiKey };
  }

  private newApiKey(): string {
    return `gmk_${this.random.token(256)}`;
  }

  async issueSession(
    userId: number,
    options: { isAdmin?: boolean; teamId?: number | null; origin?: SessionOrigin } = {},
  ): Promise<{ sessionKey: string; expiresAt: Date }> {
    const sessionKey = `gms_${this.random.token(256)}`;
    const expiresAt = new Date(this.clock.nowMs() + this.config.sessionTtlSeconds * 1000);
    await this.credentials.createSession({
      userId,
      teamId: options.teamId ?? null,
      keyHash: this.fingerprint(sessionKey),
      isAdmin: options.isAdmin ?? false,
      expiresAt,
      origin: options.origin,
    });
    return { sessionKey, expiresAt };
  }
}
