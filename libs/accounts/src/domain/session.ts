/** A live session as its user sees it (GET /api/v0/auth/sessions/); never its key. */
export interface SessionRecord {
  id: number;
  createdAt: Date;
  expiresAt: Date;
  /** Written in batches, so a few seconds behind (docs/access.md "Last used"). */
  lastUsedAt: Date | null;
  /** Where the session was opened, and where it was last used from. */
  address: string | null;
  lastAddress: string | null;
  userAgent: string | null;
  /** Opened by a password login that a trusted device let skip the second factor. */
  trustedDevice: boolean;
}

/** How a session was opened, as the session list shows it. */
export interface SessionOrigin {
  address: string | null;
  userAgent: string | null;
  trustedDevice: boolean;
}

/** A session opened by the request from `origin`. */
export function sessionOriginOf(
  origin: { address: string | null; userAgent: string | null },
  trustedDevice = false,
): SessionOrigin {
  return { address: origin.address, userAgent: origin.userAgent, trustedDevice };
}
