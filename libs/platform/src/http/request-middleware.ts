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
