import { Clock } from '../application/ports/clock.port';
import {
  RateLimitDecision,
  RateLimiter,
  RateLimitRule,
} from '../application/ports/rate-limiter.port';

export class InMemoryRateLimiter extends RateLimiter {
  /** Admission times (ms) per bucket and identity, oldest first. */
  private readonly admitted = new Map<string, { at: number; ticket: object }[]>();

  constructor(private readonly clock: Clock) {
    super();
  }

  async acquire(bucket: string, identity: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const key = `${bucket}:${identity}`;
    const now = this.clock.nowMs();
    const [limit, windowMs] =
      'intervalSeconds' in rule
        ? [1, rule.intervalSeconds * 1000]
        : [rule.limit, rule.windowSeconds * 1000];
    const live = (this.admitted.get(key) ?? []).filter((entry) => entry.at > now - windowMs);
    this.admitted.set(key, live);
    if (live.length >= limit) return { admitted: false, waitMs: live[0].at + windowMs - now };
    const ticket = {};
    live.push({ at: now, ticket });
    return {
      admitted: true,
      giveBack: async () => {
        const entries = this.admitted.get(key) ?? [];
        this.admitted.set(
          key,
          entries.filter((entry) => entry.ticket !== ticket),
        );
      },
    };
  }
}
