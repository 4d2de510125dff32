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
}

export abstract class TeamRepository {
  abstract upsert(team: { id: number; name: string }): Promise<void>;
  abstract create(name: string): Promise<number>;
  abstract addMember(teamId: number, userId: number): Promise<void>;
  abstract isMember(teamId: number, userId: number): Promise<boolean>;
}
