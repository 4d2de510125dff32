import { CredentialRecord } from '../../domain/credential';

export interface NewApiKey {
  userId: number;
  teamId: number | null;
  keyHash: string;
  keyPrefix: string;
}

export interface NewSession {
  userId: number;
  teamId: number | null;
  keyHash: string;
  isAdmin: boolean;
  expiresAt: Date;
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

export abstract class TeamRepository {
  abstract upsert(team: { id: number; name: string }): Promise<void>;
  abstract create(name: string): Promise<number>;
  abstract addMember(teamId: number, userId: number): Promise<void>;
  abstract isMember(teamId: number, userId: number): Promise<boolean>;
}
