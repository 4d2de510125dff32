export type CredentialKind = 'api_key' | 'session';

/** A stored Bearer credential: only the fingerprint of the key is kept. */
export interface CredentialRecord {
  id: number;
  kind: CredentialKind;
  userId: number;
  teamId: number | null;
  isAdminSession: boolean;
  expiresAt: Date | null;
  /** Sessions only: when logout, a 2FA change or an operator ended it. */
  revokedAt: Date | null;
  isAdminUser: boolean;
}

/** Visible prefix kept beside the fingerprint so operators can tell keys apart. */
export function keyPrefix(key: string): string {
  return key.slice(0, 8);
}
