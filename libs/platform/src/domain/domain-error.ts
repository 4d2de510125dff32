/**
 * The one error type the application and domain layers throw. `code` is stable and is
 * mapped to an HTTP status and wire body by the http layer's error catalog; `details`
 * are extra body fields the spec defines for some codes (fail_count, locked_until, ...).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** Raised when a caller exceeds a per-endpoint minimum request interval. */
export class RateLimitedError extends Error {
  constructor(
    readonly threshold: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`API requests too frequent endpoint threshold=${threshold.toFixed(1)}`);
    this.name = 'RateLimitedError';
  }
}

/** Raised when a user already has the maximum of one kind of write in flight. */
export class TooManyInFlightError extends Error {
  readonly retryAfterSeconds = 1;

  constructor(readonly limit: number) {
    super(
      `Too many concurrent requests to this endpoint: at most ${limit} at a time per user; retry shortly`,
    );
    this.name = 'TooManyInFlightError';
  }
}
