import type { Request } from 'express';
import { originOf, RequestOrigin } from '../domain/request-origin';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value as the client wrote it. Node hands header bytes over one character per
 * byte (latin1), so a browser's UTF-8 `é` arrives as `Ã©`: when the bytes are valid UTF-8
 * they are read as UTF-8; anything else (a real latin1 header) stays as it came.
 */
export function headerText(raw: string): string {
  // Only a value of byte-sized characters, some of them beyond ASCII, can be UTF-8 bytes.
  const codes = [...raw].map((char) => char.codePointAt(0)!);
  if (!codes.some((code) => code >= 0x80) || codes.some((code) => code > 0xff)) return raw;
  try {
    return utf8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}

/** The request's origin for the security records: `request.ip` and its User-Agent header. */
export function requestOrigin(request: Request): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return originOf(request.ip, userAgent === undefined ? undefined : headerText(userAgent));
}
