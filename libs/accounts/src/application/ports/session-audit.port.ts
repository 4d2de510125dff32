import { RequestOrigin } from '@app/platform';

/** Why accounts ended sessions: the holder logged out, or an operator ended them all. */
export type SessionEndCause = 'logout' | 'operator';

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
