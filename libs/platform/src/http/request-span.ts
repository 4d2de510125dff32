import type { Attributes, Span } from '@opentelemetry/api';

/** The attribute that carries our error code (a DomainError's code) on a span. */
export const ERROR_CODE_ATTRIBUTE = 'app.error_code';

/** Where the tracing middleware keeps a request's server span (tracing-hooks.ts). */
export const REQUEST_SPAN = Symbol('requestSpan');

/**
 * Adds attributes to the request's HTTP server span (the user id once authenticated, the
 * error code of a failure), the span an operator finds a request by. Nothing without tracing.
 */
export function annotateRequestSpan(request: object, attributes: Attributes): void {
  (request as { [REQUEST_SPAN]?: Span })[REQUEST_SPAN]?.setAttributes(attributes);
}
