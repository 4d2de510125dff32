import type { RequestHandler } from 'express';
import { PrometheusMetrics } from '../infrastructure/observability/prometheus-metrics';

/**
 * Times every request, including those refused by a guard, labelled by the matched route
 * template (never the raw path: ids in paths would explode label cardinality). A plain
 * Express middleware, installed once by the api's bootstrap ahead of every route: as a Nest
 * middleware bound to every route it cost a second route match and a wrapper per request.
 */
export function timeRequests(metrics: PrometheusMetrics): RequestHandler {
  return (request, response, next) => {
    const stop = metrics.httpDuration.startTimer();
    response.once('finish', () => {
      const route = (request.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: request.method, route, status: String(response.statusCode) });
    });
    next();
  };
}
