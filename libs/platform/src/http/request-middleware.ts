import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import compression from 'compression';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { inRequestScope } from '../infrastructure/request-scope';
import { bearerToken } from './bearer-token';
import { errorBody, sendEnvelope } from './error-envelope';
import { jsonBodyProblem, queryProblem } from './hostile-input';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The public client does not normalise --url, so `http://host/` + `/api/v0/...` arrives
 * as `//api/v0/...`. Collapse leading duplicate slashes before routing (no redirect:
 * a redirect would turn a POST into a body-less GET).
 */
export const collapseLeadingSlashes: RequestHandler = (request, _response, next) => {
  if (request.url.startsWith('//')) request.url = request.url.replace(/^\/{2,}/, '/');
  next();
};

/**
 * Query values reach the same code as bodies (filters, cursors, ids): control characters
 * are refused before routing, on every route. See hostile-input.ts.
 */
export const rejectHostileQuery: RequestHandler = (request, response, next) => {
  const problem = queryProblem(request.url);
  if (problem) return reject(response, problem);
  next();
};

const jsonParser = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true });

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

function reject(response: Response, msg: string): void {
  sendEnvelope(response, { status: 400, body: errorBody(msg, 'bad_request') });
}

/**
 * JSON bodies only, at most 64 KiB, always an object, within the shape limits of
 * hostile-input.ts. Body parser failures are
 * answered here in the error envelope, before they could reach Express's HTML handler.
 */
export const parseJsonBody: RequestHandler = (
  request: Request,
  response: Response,
  next: NextFunction,
) => {
  if (!hasBody(request)) {
    request.body = {};
    return next();
  }
  if (request.method === 'GET' || request.method === 'HEAD') {
    // A GET body has no meaning here (the public client sends one with `show endpoints`):
    // it is drained and ignored, whatever it holds.
    request.resume();
    request.body = {};
    return next();
  }
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    return reject(response, 'Content-Type must be application/json');
  }
  jsonParser(request, response, (error?: unknown) => {
    if (error) {
      const kind = (error as { type?: string }).type;
      if (kind === 'entity.too.large')
        return reject(response, `Request body exceeds ${MAX_BODY_BYTES / 1024} KiB`);
      if (kind === 'encoding.unsupported' || kind === 'charset.unsupported') {
        return reject(response, 'Request body must be UTF-8 encoded JSON');
      }
      return reject(response, 'Malformed JSON body');
    }
    const body: unknown = request.body;
    if (body === undefined || body === null) {
      request.body = {};
    } else if (typeof body !== 'object' || Array.isArray(body)) {
      return reject(response, 'Request body must be a JSON object');
    } else {
      const problem = jsonBodyProblem(body);
      if (problem) return reject(response, problem);
    }
    next();
  });
};

/**
 * Each request's handling runs in a scope of its own (request-scope.ts), where what it owes
 * the database (its audit entry) waits for its first transaction.
 */
export const openRequestScope: RequestHandler = (_request, _response, next) =>
  inRequestScope(() => next());

/**
 * A refusal for being too many is answered when its `Retry-After` second is over, not at
 * once: a client that ignores Retry-After would otherwise turn refusals into a busy loop
 * that takes the event loop from everyone else. Holding it costs a timer; the connection
 * caps bound how many are held.
 */
export const REFUSAL_DELAY_MS = 1_000;

export function answerLater(response: Response, answer: () => void): void {
  const timer = setTimeout(() => {
    if (!response.headersSent && !response.destroyed) answer();
  }, REFUSAL_DELAY_MS);
  response.once('close', () => clearTimeout(timer));
}

/**
 * At most `limit` requests in flight per Bearer credential in this process, counted before
 * the credential is even looked up: a client that opens a thousand requests at once gets
 * 429 for all but `limit` of them (after REFUSAL_DELAY_MS) at the cost of a hash, and its
 * requests never fill the database pool's queue ahead of everyone else's. The count is on
 * the credential the auth guard will resolve (bearerToken), not on the header's spelling:
 * `bearer KEY` and `Bearer  KEY` are the same key. A header that names no Bearer token is
 * counted as it is (the guard refuses it). Requests without a credential are not counted
 * here (the password login has its own throttle; probes are cheap).
 */
export function capInFlightPerCredential(limit: number): RequestHandler {
  const inFlight = new Map<string, number>();
  return (request, response, next) => {
    const authorization = request.headers.authorization;
    if (limit === 0 || !authorization) return next();
    const credential = bearerToken(authorization) ?? authorization;
    const key = createHash('sha256').update(credential).digest('base64');
    const running = inFlight.get(key) ?? 0;
    if (running >= limit) {
      return answerLater(response, () => {
        response.setHeader('Retry-After', '1');
        response.status(429).json({
          detail: `Too many concurrent requests: at most ${limit} at a time per API key; retry shortly`,
        });
      });
    }
    inFlight.set(key, running + 1);
    response.once('close', () => {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left > 0) inFlight.set(key, left);
      else inFlight.delete(key);
    });
    next();
  };
}

/**
 * Compresses a response when the client accepts it (`Accept-Encoding`: br, gzip or
 * deflate, in the client's order of preference) and its body is at least `minBytes` (a
 * streamed body, such as the charges export, has no length and is always compressed).
 * Every write is flushed through (Z_SYNC_FLUSH / BROTLI_OPERATION_FLUSH). A route that
 * streams its own body compresses it in its pipeline instead (streamCompression), which
 * this middleware then leaves alone (docs/operations.md "Compression"). Brotli at quality 4.
 */
export function compressResponses(settings: {
  enabled: boolean;
  minBytes: number;
}): RequestHandler {
  if (!settings.enabled) return (_request, _response, next) => next();
  return compression({
    threshold: settings.minBytes,
    flush: zlib.constants.Z_SYNC_FLUSH,
    brotli: {
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
    },
  });
}

/**
 * For a route that streams its own body (the charges export): the compression stage the
 * client asked for (`br` or `gzip` in `Accept-Encoding`, its order of preference; none
 * without the header), with `Content-Encoding` and `Vary` set, flushing every write
 * through so the first bytes leave at once and backpressure reaches the source. The route
 * puts it in its pipeline; compressResponses leaves an encoded response alone.
 */
export function streamCompression(request: Request, response: Response): Transform | null {
  response.vary('Accept-Encoding');
  if (!request.headers['accept-encoding']) return null;
  const encoding = request.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding !== 'br' && encoding !== 'gzip') return null;
  response.setHeader('Content-Encoding', encoding);
  return encoding === 'br'
    ? zlib.createBrotliCompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
      })
    : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH });
}
