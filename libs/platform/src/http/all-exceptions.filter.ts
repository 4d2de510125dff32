import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AtCapacityError,
  BudgetExhaustedError,
  DomainError,
  RateLimitedError,
  TooManyInFlightError,
} from '../domain/domain-error';
import { POOL_WAIT_TIMEOUT_MESSAGE } from '../infrastructure/database/database-setup';
import { ErrorCatalog } from './error-catalog';
import { ErrorEnvelope, errorBody, sendEnvelope } from './error-envelope';
import { ERROR_CODE_ATTRIBUTE, annotateRequestSpan } from './request-span';
import { answerLater } from './request-middleware';

const HTTP_STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'missing_auth_value',
  403: 'auth_error',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'bad_request',
  415: 'bad_request',
};

/**
 * Turns every failure into the JSON error envelope. Client mistakes keep their meaning; an
 * unexpected error is logged server-side and answered with a bare 500, never a stack.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly catalog: ErrorCatalog) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const envelope = this.toEnvelope(exception, request);
    annotateRequestSpan(request, { [ERROR_CODE_ATTRIBUTE]: errorCodeOf(exception, envelope) });
    // Too many in flight: answered after its Retry-After, so ignoring it cannot busy-loop.
    if (exception instanceof TooManyInFlightError || exception instanceof AtCapacityError)
      return answerLater(response, () => sendEnvelope(response, envelope));
    sendEnvelope(response, envelope);
  }

  toEnvelope(exception: unknown, request: Request): ErrorEnvelope {
    if (
      exception instanceof RateLimitedError ||
      exception instanceof TooManyInFlightError ||
      exception instanceof BudgetExhaustedError
    ) {
      return {
        status: 429,
        body: { detail: exception.message },
        headers: { 'Retry-After': String(exception.retryAfterSeconds) },
      };
    }
    if (exception instanceof AtCapacityError) {
      return {
        status: 503,
        body: errorBody(exception.message, 'service_unavailable'),
        headers: { 'Retry-After': String(exception.retryAfterSeconds) },
      };
    }
    if (exception instanceof DomainError) {
      const mapping = this.catalog.resolve(exception.code);
      if (mapping) {
        const wireCode = mapping.wireCode === undefined ? exception.code : mapping.wireCode;
        return {
          status: mapping.status,
          body: errorBody(exception.message, wireCode, exception.details),
        };
      }
      this.logger.error(`Unmapped error code '${exception.code}': ${exception.message}`);
    } else if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && exception.constructor.name === 'NotFoundException') {
        const path = request.originalUrl?.split('?')[0] ?? request.url;
        return { status, body: errorBody(`No route for ${request.method} ${path}`, 'not_found') };
      }
      if (status === 503) {
        // Health checks and dependency outages keep their descriptive body (terminus format).
        const response = exception.getResponse();
        return {
          status,
          body:
            typeof response === 'object'
              ? (response as Record<string, unknown>)
              : errorBody(String(response), 'service_unavailable'),
        };
      }
      if (status < 500) {
        return {
          status,
          body: errorBody(
            describeHttpException(exception),
            HTTP_STATUS_CODES[status] ?? 'bad_request',
          ),
        };
      }
    } else if (isUnstorableInput(exception)) {
      // A backstop behind the input limits of hostile-input.ts: a value the database refuses
      // to store is the client's mistake, never a 500.
      return {
        status: 400,
        body: errorBody('Invalid request: a value cannot be stored as given', 'bad_request'),
      };
    } else if (isDatabaseSaturated(exception)) {
      // No pooled connection within DATABASE_POOL_WAIT_MS, no connection slot left on the
      // server, or a statement or lock wait past its bound: load, not a bug. The client may
      // retry after a short pause.
      this.logger.warn(
        `Database saturated: ${String((exception as { message?: unknown }).message)}`,
      );
      return {
        status: 503,
        body: errorBody('The database is busy; retry shortly.', 'service_unavailable'),
        headers: { 'Retry-After': '1' },
      };
    } else if (isConnectionLoss(exception)) {
      this.logger.warn(
        `Dependency connection lost: ${String((exception as { message?: unknown }).message)}`,
      );
      return {
        status: 503,
        body: errorBody('A backing service is unavailable; retry shortly.', 'service_unavailable'),
        headers: { 'Retry-After': '1' },
      };
    } else {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    return { status: 500, body: errorBody('Internal server error', 'internal_error') };
  }
}

/**
 * PostgreSQL admin shutdown / connection failure classes, dropped sockets, and Redis being
 * away (ioredis refuses or times out commands): all mean "retry later", never a bug.
 */
const CONNECTION_LOSS_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
]);

const CONNECTION_LOSS_MESSAGES = new RegExp(
  [
    'Connection terminated',
    'connection timeout',
    'Connection is closed',
    'terminating connection',
    'not queryable',
    'query runner was already released',
    'Command timed out',
    "Stream isn't writeable",
    'max retries per request',
    // A cluster or Sentinel in the middle of a failover or resharding.
    "Cluster isn't ready",
    'None of startup nodes is available',
    'Failed to refresh slots cache',
    'Too many Cluster redirections',
    'All sentinels are unreachable',
  ].join('|'),
  'i',
);

/**
 * query_canceled (statement_timeout), lock_not_available (lock_timeout), and the server's
 * insufficient_resources class: too_many_connections (53300, max_connections reached, a
 * pool budget that does not fit) among them. Load, not a bug.
 */
const SATURATION_CODES = new Set(['57014', '55P03', '53000', '53100', '53200', '53300', '53400']);

function isDatabaseSaturated(exception: unknown): boolean {
  if (typeof exception !== 'object' || exception === null) return false;
  const error = exception as { message?: unknown; code?: string; driverError?: { code?: string } };
  const code = error.driverError?.code ?? error.code;
  return (
    (code !== undefined && SATURATION_CODES.has(code)) ||
    (typeof error.message === 'string' && error.message.includes(POOL_WAIT_TIMEOUT_MESSAGE))
  );
}

/** Invalid byte sequence, untranslatable character, numeric value out of range. */
const UNSTORABLE_INPUT_CODES = new Set(['22021', '22P05', '22003']);

function isUnstorableInput(exception: unknown): boolean {
  if (typeof exception !== 'object' || exception === null) return false;
  const error = exception as { code?: string; driverError?: { code?: string } };
  const code = error.driverError?.code ?? error.code;
  return code !== undefined && UNSTORABLE_INPUT_CODES.has(code);
}

/**
 * Redis replies that mean "this node cannot serve you right now": a demoted master
 * (READONLY), a node loading its data (LOADING), a replica cut off from its master
 * (MASTERDOWN), a cluster without quorum or mid-migration (CLUSTERDOWN, TRYAGAIN, and a
 * MOVED / ASK redirection the client gave up following). Retrying later succeeds. Inside a
 * script the reply comes wrapped ("ERR ... script: READONLY ...").
 */
const REDIS_UNAVAILABLE_REPLY =
  /(^|: )(READONLY|LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|MOVED|ASK|NOREPLICAS) /;

export function isConnectionLoss(exception: unknown): boolean {
  // Shape, not instanceof: driver errors may come from another realm (e.g. under jest).
  if (typeof exception !== 'object' || exception === null) return false;
  const error = exception as { message?: unknown; code?: string; driverError?: { code?: string } };
  const code = error.driverError?.code ?? error.code;
  return (
    (code !== undefined && CONNECTION_LOSS_CODES.has(code)) ||
    (typeof error.message === 'string' &&
      (CONNECTION_LOSS_MESSAGES.test(error.message) || REDIS_UNAVAILABLE_REPLY.test(error.message)))
  );
}

/**
 * The code a failed request's span carries: the error's own code (the one its table
 * declares, even where the wire leaves it out), else the code the body answers, else the
 * status (a 429's `{detail}` body has no code).
 */
function errorCodeOf(exception: unknown, envelope: ErrorEnvelope): string {
  if (exception instanceof DomainError) return exception.code;
  if (exception instanceof RateLimitedError) return 'rate_limited';
  if (exception instanceof TooManyInFlightError) return 'too_many_in_flight';
  return typeof envelope.body.error === 'string' ? envelope.body.error : String(envelope.status);
}

function describeHttpException(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
