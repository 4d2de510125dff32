/** The 30-minute add-method authorization (Redis). Unavailable store -> the caller fails closed. */
export abstract class AuthorizationStore {
  abstract grant(userId: number, grantedAtMs: number, ttlMs: number): Promise<void>;
  /** When the current authorization was granted, or null. */
  abstract grantedAt(userId: number): Promise<number | null>;
}
