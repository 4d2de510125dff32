import { createHash } from 'node:crypto';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
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
 * answered here in the spec's envelope, before they could reach Express's HTML handler.
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
 * requests never fill the database pool's queue ahead of everyone else's. Requests without a credential are not
 * counted here (the password login has its own throttle; probes are cheap).
 */
export function capInFlightPerCredential(limit: number): RequestHandler {
  const inFlight = new Map<string, number>();
  return (request, response, next) => {
    const authorization = request.headers.authorization;
    if (limit === 0 || !authorization) return next();
    const key = createHash('sha256').update(authorization).digest('base64');
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
