/** Statuses worth another attempt: rate limiting and gateway/availability failures. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

export interface RetryPolicy {
  /** Retries after the first attempt (`--retry`); 0 disables retrying. */
  retries: number;
  baseDelayMs: number;
  factor: number;
  /** A Retry-After longer than this is not waited for: the error is reported at once. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 150,
  factor: 1.5,
  maxWaitMs: 60_000,
};

/** Backoff before retry number `retry` (0-based): 150 ms, 225 ms, 337.5 ms, ... */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  return policy.baseDelayMs * policy.factor ** retry;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

export interface AttemptOutcome {
  /** HTTP status, or undefined for a connection error or timeout. */
  status?: number;
  retryAfter?: string | null;
  /**
   * A 429 carrying an application error code (tfa_locked, sms_rate_limited, ...) and no
   * Retry-After: a refusal that a quick retry cannot change and might make worse.
   */
  refusal?: boolean;
}

/**
 * How long to wait before retry number `retry` (0-based), or null to stop and report.
 * The wait is the exponential backoff, raised to the server's Retry-After when it asks
 * for longer.
 */
export function retryDelay(
  policy: RetryPolicy,
  retry: number,
  outcome: AttemptOutcome,
  now: Date,
): number | null {
  if (retry >= policy.retries) return null;
  if (outcome.status !== undefined && !RETRYABLE_STATUSES.has(outcome.status)) return null;
  if (outcome.status === 429 && outcome.refusal && !outcome.retryAfter) return null;
  const backoff = backoffMs(policy, retry);
  const asked = parseRetryAfter(outcome.retryAfter, now);
  if (asked !== undefined && asked > policy.maxWaitMs) return null;
  return Math.max(backoff, asked ?? 0);
}
