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
