import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { CredentialRepository } from '../ports/credential.repository.port';
import { SessionRevocation } from '../ports/session-revocation.port';

/** Sessions are credentials: revoking one stamps `revoked_at`, the auth guard does the rest. */
@Injectable()
export class CredentialSessionRevocation extends SessionRevocation {
  constructor(
    private readonly credentials: CredentialRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  revoke(sessionId: number): Promise<boolean> {
    return this.credentials.revokeSession(sessionId, this.clock.now());
  }

  revokeOthers(userId: number, keepSessionId?: number): Promise<number> {
    return this.credentials.revokeSessionsOf(userId, this.clock.now(), keepSessionId);
  }

  revokeAll(userId: number): Promise<number> {
    return this.credentials.revokeSessionsOf(userId, this.clock.now());
  }
}
