import { RequestOrigin } from '@app/platform';

/**
 * Why accounts ended sessions: the holder logged out, the user ended them (DELETE
 * /api/v0/auth/sessions/), or an operator ended them all.
 */
export type SessionEndCause = 'logout' | 'user' | 'operator';

/**
 * Hears about sessions accounts ends, for the user's security history. Implemented by
 * the identity-tfa context; called inside the unit of work that ends them.
 */
export abstract class SessionAudit {
  abstract sessionsEnded(
    userId: number,
    ended: { count: number; cause: SessionEndCause; origin: RequestOrigin },
  ): Promise<void>;
}
