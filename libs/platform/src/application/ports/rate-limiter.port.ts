/**
 * What a bucket admits per identity: at most one request per `intervalSeconds` (the
 * per-endpoint minimum intervals of the README's `RATE_LIMIT_*` settings), or at most `limit` requests in any `windowSeconds`
 * (a sliding window: a budget such as the security writes one user may make).
 */
export type RateLimitRule = { intervalSeconds: number } | { limit: number; windowSeconds: number };

export type RateLimitDecision =
  | {
      admitted: true;
      /**
       * Gives this admission back, as if the request had never come (it was refused before
       * doing anything). Only this admission: a later one is never undone.
       */
      giveBack(): Promise<void>;
    }
  | { admitted: false; waitMs: number };

export abstract class RateLimiter {
  /**
   * Admits a request of (bucket, identity) under `rule`, atomically across processes.
   * Refused: the milliseconds until the bucket admits again.
   */
  abstract acquire(
    bucket: string,
    identity: string,
    rule: RateLimitRule,
  ): Promise<RateLimitDecision>;
}
