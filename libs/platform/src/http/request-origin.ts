import type { Request } from 'express';
import { originOf, RequestOrigin } from '../domain/request-origin';

/** The request's origin for the security records: `request.ip` and its User-Agent header. */
export function requestOrigin(request: Request): RequestOrigin {
  return originOf(request.ip, request.headers['user-agent']);
}
