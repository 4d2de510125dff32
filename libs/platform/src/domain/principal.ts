import { IpAllowlist } from './access/ip-allowlist';
import { Permissions } from './access/permissions';

/** Who is calling: resolved from the Bearer credential by the auth guard. */
export interface Principal {
  readonly userId: number;
  readonly credentialId: number;
  readonly credentialKind: 'api_key' | 'session';
  /** Team whose key made the request; null in the personal context. */
  readonly teamId: number | null;
  readonly isAdminUser: boolean;
  readonly isAdminSession: boolean;
  /**
   * What the credential may do (docs/access.md): full for a key without a permission
   * document and for every session, else what its document lists.
   */
  readonly permissions: Permissions;
  /** The addresses the key may be used from (its ip_whitelist); null: any. */
  readonly ipAllowlist: IpAllowlist | null;
}
