export abstract class RateLimiter {
  /**
   * Admits at most one request per `intervalSeconds` for (bucket, identity), atomically
   * across processes. Returns 0 when admitted, else the milliseconds until the next slot.
   */
  abstract acquire(bucket: string, identity: string, intervalSeconds: number): Promise<number>;
}
