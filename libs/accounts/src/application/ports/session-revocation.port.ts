/**
 * Ending sessions, for the contexts whose changes must log other devices out (2FA
 * disabled, a method removed, backup codes replaced). Called inside the caller's unit of
 * work, the revocation commits or rolls back with the change that caused it.
 */
export abstract class SessionRevocation {
  /** Logout: ends this one session. False when it had already ended. */
  abstract revoke(sessionId: number): Promise<boolean>;
  /**
   * Ends every live session of the user except `keepSessionId` (the caller's own, when
   * the caller authenticated with a session key); returns how many ended.
   */
  abstract revokeOthers(userId: number, keepSessionId?: number): Promise<number>;
  /** Operator: ends all of the user's sessions. */
  abstract revokeAll(userId: number): Promise<number>;
}
