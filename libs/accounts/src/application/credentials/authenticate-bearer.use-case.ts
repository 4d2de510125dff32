import { AccountsError } from '../../domain/errors';
import { Injectable } from '@nestjs/common';
import { Clock, CredentialVerifier, Principal } from '@app/platform';
import { CredentialIssuer } from './credential-issuer.service';
import { CredentialCache } from '../ports/credential-cache.port';
import { CredentialRepository } from '../ports/credential.repository.port';

/** Bearer token -> principal, for API keys and 2FA session keys alike. */
@Injectable()
export class AuthenticateBearerUseCase extends CredentialVerifier {
  constructor(
    private readonly credentials: CredentialRepository,
    private readonly issuer: CredentialIssuer,
    private readonly clock: Clock,
    private readonly cache: CredentialCache,
  ) {
    super();
  }

  async verify(bearerToken: string): Promise<Principal> {
    return this.execute(bearerToken);
  }

  async execute(bearerToken: string): Promise<Principal> {
    // Keys made before a SECRET_HMAC_KEY rotation are stored under an older key's fingerprint;
    // the cache files every key under its current one.
    const fingerprints = this.issuer.fingerprints(bearerToken);
    let record = this.cache.recall(fingerprints[0]) ?? null;
    if (!record) {
      const generation = this.cache.generation();
      for (const hash of fingerprints) {
        record = await this.credentials.findByHash(hash);
        if (record) break;
      }
      if (record) this.cache.remember(fingerprints[0], record, generation);
    }
    if (!record) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    const expired = record.expiresAt !== null && record.expiresAt.getTime() <= this.clock.nowMs();
    if (record.kind === 'api_key' && expired)
      throw new AccountsError('auth_invalid_key', 'This API key has expired.');
    // A revoked session answers like an expired one: the public client then falls back to
    // its API key, and the holder learns to log in again (docs/decisions.md "Sessions end").
    if (record.revokedAt || expired) {
      throw new AccountsError('auth_session_expired', 'Session expired. Please log in again.');
    }
    if (record.teamTfaMissing)
      throw new AccountsError(
        'team_tfa_required',
        'This team requires two-factor authentication: enable it in your personal context first.',
      );
    return {
      userId: record.userId,
      credentialId: record.id,
      credentialKind: record.kind,
      teamId: record.teamId,
      isAdminUser: record.isAdminUser,
      isAdminSession: record.isAdminSession && record.isAdminUser,
      permissions: record.permissions,
      ipAllowlist: record.ipAllowlist,
    };
  }
}
