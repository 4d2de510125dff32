/**
 * The credential of an `Authorization: Bearer <token>` header, as the auth guard resolves
 * it: the scheme in any case, the token with surrounding spaces trimmed. Undefined when the
 * header is not a Bearer one or carries no token. Everything that tells credentials apart
 * (the guard, the per-credential in-flight cap) reads them through this one function, so
 * `bearer KEY`, `BEARER KEY` and `Bearer  KEY` are one credential everywhere.
 */
export function bearerToken(header: string): string | undefined {
  const match = /^Bearer (.+)$/i.exec(header);
  const token = match?.[1].trim();
  return token ? token : undefined;
}
