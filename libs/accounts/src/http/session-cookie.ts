import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'gm_session';
export const SESSION_HEADER = 'X-Session-Key';

/** Browser sessions travel in an HttpOnly, Secure, SameSite=Strict cookie and a header. */
export function setSessionCookie(response: Response, sessionKey: string, expiresAt: Date): void {
  response.cookie(SESSION_COOKIE, sessionKey, {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: '/',
    expires: expiresAt,
  });
  response.setHeader(SESSION_HEADER, sessionKey);
}

/**
 * A trusted device's token (docs/identity-tfa.md "Trusted devices"): long-lived, and sent
 * only to the password login, the one route that reads it.
 */
export const DEVICE_COOKIE = 'gm_device';
export const DEVICE_COOKIE_PATH = '/api/v0/users/login';

export function setDeviceCookie(response: Response, token: string, lifetimeSeconds: number): void {
  response.cookie(DEVICE_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: DEVICE_COOKIE_PATH,
    maxAge: lifetimeSeconds * 1000,
  });
}

/** The value of the request's first cookie called `name` (no cookie parser needed for one). */
export function requestCookie(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name)
      return pair.slice(separator + 1).trim();
  }
  return undefined;
}
