/**
 * The `msg` of the account-security errors raised in more than one place, so each reads the
 * same wherever it is raised. A message raised in one place only stays beside its `throw`.
 */
export const ACCOUNT_SECURITY_ERROR_MESSAGES = {
  /** One message whatever was wrong with a next_token, so it reveals nothing. */
  invalidToken: 'Invalid pagination token',
  /** Unknown, another user's, and already revoked read the same: ids are never confirmed. */
  noSuchDevice: (id: number) => `No trusted device ${id}.`,
  noSuchUser: (id: number) => `No user ${id}`,
  /** The credential names a user that no longer exists. */
  invalidUserKey: 'Invalid user key',
} as const;
