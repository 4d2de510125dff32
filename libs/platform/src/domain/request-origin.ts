/**
 * Where a request came from, as security records keep it (the 2FA events, trusted
 * devices): the client address and the user agent, never a credential. Use cases take it
 * in their command, so it is always explicit where it is recorded.
 */
export interface RequestOrigin {
  /** The client address as the api sees it (`request.ip`); null for operator commands. */
  readonly address: string | null;
  /** The User-Agent header, cut to USER_AGENT_MAX_LENGTH characters; null when absent. */
  readonly userAgent: string | null;
}

/** A user agent longer than this is cut: it is shown to people, not parsed. */
export const USER_AGENT_MAX_LENGTH = 256;

/** What operator commands (`npm run manage`) record as their origin. */
export const OPERATOR_ORIGIN: RequestOrigin = { address: null, userAgent: 'manage' };

/** The origin of a request from its address and User-Agent header, as they arrived. */
export function originOf(
  address: string | null | undefined,
  userAgent: string | null | undefined,
): RequestOrigin {
  return {
    address: address || null,
    userAgent: userAgent ? [...userAgent].slice(0, USER_AGENT_MAX_LENGTH).join('') : null,
  };
}
