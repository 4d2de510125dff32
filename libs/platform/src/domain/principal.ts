/** Who is calling: resolved from the Bearer credential by the auth guard. */
export interface Principal {
  readonly userId: number;
  readonly credentialId: number;
  readonly credentialKind: 'api_key' | 'session';
  /** Team whose key made the request; null in the personal context. */
  readonly teamId: number | null;
  readonly isAdminUser: boolean;
  readonly isAdminSession: boolean;
}
