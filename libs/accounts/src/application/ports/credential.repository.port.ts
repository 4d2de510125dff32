import { CredentialRecord } from '../../domain/credential';
import { SessionOrigin } from '../../domain/session';

export interface NewApiKey {
  userId: number;
  teamId: number | null;
  keyHash: string;
  keyPrefix: string;
  /** The user's main key (the one `reset api-key` rotates); it takes over from the previous. */
  main?: boolean;
}

export interface NewSession {
  userId: number;
  teamId: number | null;
  keyHash: string;
  isAdmin: boolean;
  expiresAt: Date;
  /** Where it was opened, for the session list; absent: unknown. */
  origin?: SessionOrigin;
}

export abstract class CredentialRepository {
  abstract findByHash(keyHash: string): Promise<CredentialRecord | null>;
  abstract createApiKey(key: NewApiKey): Promise<number>;
  /** Fixtures: an explicit key string, idempotent on its fingerprint. */
  abstract upsertApiKey(key: NewApiKey): Promise<number>;
  abstract createSession(session: NewSession): Promise<number>;
  /** Ends one live session; false when it was already revoked or is not a session. */
  abstract revokeSession(sessionId: number, at: Date): Promise<boolean>;
  /** Ends the user's live sessions, all but `exceptSessionId`; returns how many. */
  abstract revokeSessionsOf(userId: number, at: Date, exceptSessionId?: number): Promise<number>;
}
