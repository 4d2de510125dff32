import type { Response } from 'express';

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
