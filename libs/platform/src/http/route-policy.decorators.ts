import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { Principal } from '../domain/principal';
import { ErrorEnvelopeDto, RateLimitedDto } from './openapi-errors';

export type AuthPolicy = 'bearer' | 'public' | 'secret-or-bearer';
export const AUTH_POLICY = 'auth-policy';
export const RATE_LIMIT_BUCKET = 'rate-limit-bucket';
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

/** A per-endpoint minimum request interval; the threshold comes from configuration. */
export const RateLimit = (bucket: string) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_BUCKET, bucket),
    ApiTooManyRequestsResponse({
      type: RateLimitedDto,
      description: 'Too frequent; see Retry-After',
    }),
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
