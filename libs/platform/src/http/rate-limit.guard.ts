import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Metrics } from '../application/ports/metrics.port';
import { RateLimiter, RateLimitRule } from '../application/ports/rate-limiter.port';
import { PlatformConfig } from '../config/platform-config';
import { BudgetExhaustedError, PlatformError, RateLimitedError } from '../domain/domain-error';
import { RateLimitRegistry } from './rate-limit.registry';
import {
  AuthenticatedRequest,
  RATE_LIMIT_BUCKET,
  RATE_LIMIT_OPTIONS,
  RateLimitOptions,
} from './route-policy.decorators';

/**
 * Runs after authentication, so the identity is the key's user; anonymous callers are
 * limited by client address, except on routes that count only users (`usersOnly`). A
 * bucket is a minimum interval (registered by its context with the RateLimitRegistry) or a
 * windowed budget of the platform's configuration. When Redis is unreachable the limit fails
 * closed (503).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly config: PlatformConfig,
    private readonly buckets: RateLimitRegistry,
    private readonly metrics: Metrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    const bucket = this.reflector.get<string | undefined>(RATE_LIMIT_BUCKET, handler);
    const options = this.reflector.get<RateLimitOptions | undefined>(RATE_LIMIT_OPTIONS, handler);
    if (!bucket || !this.config.rateLimits.enabled) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (!request.principal && options?.usersOnly) return true;
    const identity = request.principal
      ? `user:${request.principal.userId}`
      : `ip:${request.ip ?? 'unknown'}`;
    await this.admit(bucket, identity, http.getResponse(), options);
    return true;
  }

  private async admit(
    bucket: string,
    identity: string,
    response: Response,
    options: RateLimitOptions | undefined,
  ): Promise<void> {
    const threshold = this.buckets.intervalOf(bucket);
    const window = this.config.rateLimits.windows[bucket];
    const rule: RateLimitRule | undefined = threshold
      ? { intervalSeconds: threshold }
      : window
        ? { limit: window.limit, windowSeconds: window.windowSeconds }
        : undefined;
    if (!rule) return;
    let decision;
    try {
      decision = await this.limiter.acquire(bucket, identity, rule);
    } catch {
      throw new PlatformError('service_unavailable', 'Rate limiter unavailable; retry shortly.');
    }
    if (!decision.admitted) {
      this.metrics.increment('rate_limit_refusals_total', { bucket });
      const retryAfter = Math.max(1, Math.ceil(decision.waitMs / 1000));
      if (threshold) throw new RateLimitedError(threshold, retryAfter);
      throw new BudgetExhaustedError(window.what, window.limit, window.windowSeconds, retryAfter);
    }
    if (options?.spentOnlyWhenServed) {
      // Answered with anything but a success (a malformed query, a refusal by a later
      // check), the request did nothing: it gives its admission back.
      const { giveBack } = decision;
      response.once('finish', () => {
        if (response.statusCode >= 300) void giveBack().catch(() => undefined);
      });
    }
  }
}
