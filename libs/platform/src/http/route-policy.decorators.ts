import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { SECURITY_WRITES_BUCKET } from '../config/platform-config';
import { Principal } from '../domain/principal';
import { ErrorEnvelopeDto, RateLimitedDto } from './openapi-errors';

export type AuthPolicy = 'bearer' | 'public' | 'secret-or-bearer';
export const AUTH_POLICY = 'auth-policy';
export const RATE_LIMIT_BUCKET = 'rate-limit-bucket';
export const RATE_LIMIT_OPTIONS = 'rate-limit-options';
export const CONCURRENCY_BUCKET = 'concurrency-bucket';

/** No credential needed (health, password login, OpenAPI). */
export const Public = () => SetMetadata(AUTH_POLICY, 'public' satisfies AuthPolicy);

/**
 * A Bearer token or a tfa_secret in the body (logged-out 2FA flow). With neither, the
 * guard answers 401 missing_auth_value.
 */
export const SecretOrBearer = () =>
  applyDecorators(
    SetMetadata(AUTH_POLICY, 'secret-or-bearer' satisfies AuthPolicy),
    ApiUnauthorizedResponse({
      type: ErrorEnvelopeDto,
      description: 'Neither a tfa_secret nor a Bearer token (missing_auth_value)',
    }),
  );

export interface RateLimitOptions {
  /**
   * Only a request answered with a success spends its admission: one refused (a malformed
   * query, a later check's refusal) gives it back, so a typo never costs the window.
   */
  spentOnlyWhenServed?: boolean;
  /** Requests without an authenticated user are not counted by this bucket. */
  usersOnly?: boolean;
}

/**
 * A per-endpoint minimum request interval, a bucket its context registers with the
 * RateLimitRegistry (a bucket nobody registered stops the start), or a windowed budget
 * several routes share (`security_writes`).
 */
export const RateLimit = (bucket: string, options: RateLimitOptions = {}) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_BUCKET, bucket),
    SetMetadata(RATE_LIMIT_OPTIONS, options),
    ApiTooManyRequestsResponse({
      type: RateLimitedDto,
      description: 'Too frequent; see Retry-After',
    }),
  );

/**
 * A route that records security events (a 2FA change, a login, a logout, a revocation):
 * its served requests count against the user's `security_writes` budget
 * (SECURITY_WRITES_PER_USER per SECURITY_WRITES_WINDOW_SECONDS, shared by every such
 * route), so what one user can add to their history, and to the notices it mails, is
 * bounded. A request answered with a failure gives its place back (it recorded nothing but,
 * at most, a lock, which has its own bound); requests without a user (the logged-out 2FA
 * login, whose writes each take a verified factor) are not counted here.
 */
export const SecurityWrite = () =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_BUCKET, SECURITY_WRITES_BUCKET),
    SetMetadata(RATE_LIMIT_OPTIONS, {
      spentOnlyWhenServed: true,
      usersOnly: true,
    } satisfies RateLimitOptions),
  );

/**
 * A write one user could flood: at most WRITE_CONCURRENCY_PER_USER of the bucket's requests
 * of one user run at once in a process; more are refused with 429 and Retry-After, so one
 * user cannot hold the database pool that every other user's requests need.
 */
export const CapConcurrency = (bucket: string) =>
  applyDecorators(
    SetMetadata(CONCURRENCY_BUCKET, bucket),
    ApiTooManyRequestsResponse({
      type: RateLimitedDto,
      description: 'Too many of this user’s requests to this endpoint in flight; see Retry-After',
    }),
  );

export interface AuthenticatedRequest extends Request {
  principal?: Principal;
}

/** The authenticated caller; undefined only on public or secret-only requests. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
