import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { PrometheusMetrics } from '../infrastructure/observability/prometheus-metrics';

/**
 * Times every request, including those refused by a guard, labelled by the matched route
 * template (never the raw path: ids in paths would explode label cardinality).
 */
@Injectable()
export class RequestMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: PrometheusMetrics) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const stop = this.metrics.httpDuration.startTimer();
    response.once('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: request.method, route, status: String(response.statusCode) });
    });
    next();
  }
}
