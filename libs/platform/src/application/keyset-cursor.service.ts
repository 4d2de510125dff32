import { SecretKeeper } from './ports/secret-keeper.port';

/** Tokens are well under a hundred characters; a longer one was not made here. */
const MAX_TOKEN_CHARS = 512;

/** The signed payload: whose walk it is (u) and the last id served (i). */
interface CursorPayload {
  u: number;
  i: number;
}

/**
 * The next-page token of a user's keyset walk by descending id (the security events, the
 * audit log): the last id served and its user, signed with the platform's HMAC key under a
 * purpose of its own, so an altered token, another walk's or another user's continues
 * nothing.
 */
export class KeysetCursor {
  constructor(
    private readonly secrets: SecretKeeper,
    private readonly purpose: string,
  ) {}

  /** The token of the page after `lastId` in `userId`'s walk. */
  next(userId: number, lastId: number): string {
    return this.secrets.sign(
      this.purpose,
      JSON.stringify({ u: userId, i: lastId } satisfies CursorPayload),
    );
  }

  /** The id a token continues after, or null when it is no token of this walk for this user. */
  after(userId: number, token: string): number | null {
    const payload =
      token.length <= MAX_TOKEN_CHARS ? this.secrets.verify(this.purpose, token) : null;
    if (payload === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return null;
    }
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { u, i } = parsed as Partial<Record<keyof CursorPayload, unknown>>;
    if (u !== userId || typeof i !== 'number' || !Number.isSafeInteger(i) || i < 1) return null;
    return i;
  }
}
