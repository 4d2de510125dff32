import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { Metrics } from '../application/ports/metrics.port';
import { PlatformConfig } from '../config/platform-config';
import { TooManyInFlightError } from '../domain/domain-error';
import { AuthenticatedRequest, CONCURRENCY_BUCKET } from './route-policy.decorators';

/**
 * Per-user in-flight cap on the routes marked `@CapConcurrency` (after authentication, so
 * the identity is the key's user). Counted in this process: the cap protects this
 * process's database pool, which is what a flood exhausts; N replicas admit N x cap.
 * The slot is released when the response closes, however the request ends.
 */
@Injectable()
export class WriteConcurrencyGuard implements CanActivate {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly reflector: Reflector,
    private readonly config: PlatformConfig,
    private readonly metrics: Metrics,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const bucket = this.reflector.get<string | undefined>(CONCURRENCY_BUCKET, context.getHandler());
    const limit = this.config.writeConcurrencyPerUser;
    if (!bucket || limit === 0) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const identity = request.principal
      ? `user:${request.principal.userId}`
      : `ip:${request.ip ?? 'unknown'}`;
    const key = `${bucket}:${identity}`;
    const running = this.inFlight.get(key) ?? 0;
    if (running >= limit) {
      this.metrics.increment('concurrency_refusals_total', { bucket });
      throw new TooManyInFlightError(limit);
    }
    this.inFlight.set(key, running + 1);
    http.getResponse<Response>().once('close', () => {
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    });
    return true;
  }

  /** Requests of one key now in flight (tests and diagnostics). */
  running(bucket: string, identity: string): number {
    return this.inFlight.get(`${bucket}:${identity}`) ?? 0;
  }
}
