/**
 * How an error code is answered: its HTTP status, and the wire `error` value when it is not
 * the code itself (null: the body has no `error` field, as some documented bodies have none).
 * The status is part of a code's definition so that no code can be raised without one.
 */
export interface ErrorDefinition {
  readonly status: number;
  readonly wireCode?: string | null;
}

/** Extra body fields some codes carry on the wire (fail_count, locked_until, ...). */
export type ErrorDetails = Readonly<Record<string, string | number | boolean | null>>;

/** A context's codes and how each is answered. */
export type ErrorTable<Code extends string = string> = { readonly [C in Code]: ErrorDefinition };

/**
 * Declares a context's error table, once, in its `domain/errors.ts`. The keys are the only
 * codes that context's error class accepts, so a misspelt code fails to compile; the
 * exception filter answers from the same table and the OpenAPI error docs read it.
 */
export function defineErrors<const Table extends Record<string, ErrorDefinition>>(
  table: Table,
): Table {
  return table;
}

/**
 * The one kind of error the domain and application layers raise. Each context extends it
 * with a class whose `Code` is its table's keys (`class BillingError extends
 * DomainError<BillingErrorCode> {}`) and raises only that: `throw new BillingError(code,
 * message, details?)`. `details` are extra body fields some documented codes carry
 * (fail_count, locked_until, ...). Abstract: a code outside every table cannot be raised.
 */
export abstract class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Errors every context can raise; each context's code type includes them. */
export const PLATFORM_ERRORS = defineErrors({
  bad_request: { status: 400 },
  not_found: { status: 404 },
  auth_missing: { status: 403, wireCode: 'auth_error' },
  auth_invalid_key: { status: 404, wireCode: 'auth_error' },
  auth_session_expired: { status: 404, wireCode: 'auth_error' },
  missing_auth_value: { status: 401 },
  // A credential without the permission a route needs (docs/access.md), or used from an
  // address outside its ip_whitelist: the one code of every such refusal.
  permission_denied: { status: 403 },
  service_unavailable: { status: 503 },
  internal_error: { status: 500 },
});

export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS;

/** The platform's own failures: malformed requests, authentication, outages. */
export class PlatformError extends DomainError<PlatformErrorCode> {}

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

/**
 * Raised when a caller used up a windowed budget (at most `limit` requests of a kind in any
 * `windowSeconds`), such as the account security changes one user may make.
 */
export class BudgetExhaustedError extends Error {
  constructor(
    readonly what: string,
    readonly limit: number,
    readonly windowSeconds: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Too many ${what}: at most ${limit} per ${windowSeconds} s per user; retry in ${retryAfterSeconds} s`,
    );
    this.name = 'BudgetExhaustedError';
  }
}

/**
 * Raised when this server runs as many of a costly kind of request as it allows (the
 * charges exports): not the caller's fault, so 503, answered after its Retry-After second.
 */
export class AtCapacityError extends Error {
  readonly retryAfterSeconds = 1;

  constructor(message: string) {
    super(message);
    this.name = 'AtCapacityError';
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
