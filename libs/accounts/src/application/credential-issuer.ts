import { Injectable } from '@nestjs/common';
import { Clock, PlatformConfig, RandomSource, SecretKeeper } from '@app/platform';
import { keyPrefix } from '../domain/credential';
import { CredentialRepository } from './ports/credential.repository.port';

export const CREDENTIAL_FINGERPRINT = 'credential';

/** Makes API keys and session keys: 256 random bits, stored only as a keyed fingerprint. */
@Injectable()
export class CredentialIssuer {
  constructor(
    private readonly credentials: CredentialRepository,
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

  async issueApiKey(
    userId: number,
    teamId: number | null = null,
    explicitKey?: string,
  ): Promise<string> {
    const key = explicitKey ?? `gmk_${this.random.token(256)}`;
    const record = { userId, teamId, keyHash: this.fingerprint(key), keyPrefix: keyPrefix(key) };
    if (explicitKey) await this.credentials.upsertApiKey(record);
    else await this.credentials.createApiKey(record);
    return key;
  }

  async issueSession(
    userId: number,
    options: { isAdmin?: boolean; teamId?: number | null } = {},
  ): Promise<{ sessionKey: string; expiresAt: Date }> {
    const sessionKey = `gms_${this.random.token(256)}`;
    const expiresAt = new Date(this.clock.nowMs() + this.config.sessionTtlSeconds * 1000);
    await this.credentials.createSession({
      userId,
      teamId: options.teamId ?? null,
      keyHash: this.fingerprint(sessionKey),
      isAdmin: options.isAdmin ?? false,
      expiresAt,
    });
    return { sessionKey, expiresAt };
  }
}
