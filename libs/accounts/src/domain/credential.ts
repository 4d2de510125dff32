import type { IpAllowlist, Permissions } from '@app/platform';

export type CredentialKind = 'api_key' | 'session';

/** A stored Bearer credential: only the fingerprint of the key is kept. */
export interface CredentialRecord {
  id: number;
  kind: CredentialKind;
  userId: number;
  teamId: number | null;
  isAdminSession: boolean;
  /** A session's end, or an API key's optional expiry. */
  expiresAt: Date | null;
  /** Sessions only: when logout, a 2FA change or an operator ended it. */
  revokedAt: Date | null;
  isAdminUser: boolean;
  /** Full for sessions and for keys without a permission document. */
  permissions: Permissions;
  /** API keys only: the addresses of its ip_whitelist (null: any address). */
  ipAllowlist: IpAllowlist | null;
  /**
   * Team credentials only: the team requires 2FA and the user has none enabled, so the
   * credential is refused until they enable it (docs/teams.md "Policy").
   */
  teamTfaMissing?: boolean;
}

/** Visible prefix kept beside the fingerprint so operators can tell keys apart. */
export function keyPrefix(key: string): string {
  return key.slice(0, 8);
}
