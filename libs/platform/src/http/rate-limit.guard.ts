import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Metrics } from '../application/ports/metrics.port';
import { RateLimiter } from '../application/ports/rate-limiter.port';
import { PlatformConfig } from '../config/platform-config';
import { PlatformError, RateLimitedError } from '../domain/domain-error';
import { AuthenticatedRequest, RATE_LIMIT_BUCKET } from './route-policy.decorators';

/**
 * Runs after authentication, so the identity is the key's user; anonymous callers are
 * limited by client address. When Redis is unreachable the limit fails closed (503).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    private readonly config: PlatformConfig,
    private readonly metrics: Metrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const bucket = this.reflector.get<string | undefined>(RATE_LIMIT_BUCKET, context.getHandler());
    if (!bucket || !this.config.rateLimits.enabled) return true;
    const threshold = this.config.rateLimits.thresholds[bucket];
    if (!threshold) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const identity = request.principal
      ? `user:${request.principal.userId}`
      : `ip:${request.ip ?? 'unknown'}`;
    let waitMs: number;
    try {
      waitMs = await this.limiter.acquire(bucket, identity, threshold);
    } catch {
      throw new PlatformError('service_unavailable', 'Rate limiter unavailable; retry shortly.');
    }
    if (waitMs > 0) {
      this.metrics.increment('rate_limit_refusals_total', { bucket });
      throw new RateLimitedError(threshold, Math.max(1, Math.ceil(waitMs / 1000)));
    }
    return true;
  }
}
