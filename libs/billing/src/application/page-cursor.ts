import { BillingError } from '../domain/errors';
import { createHash } from 'node:crypto';
import { SecretKeeper } from '@app/platform';
import { ChargeFilter, SortKey } from '../domain/charge-report';
import { BILLING_ERROR_CODES, INVALID_TOKEN_MSG } from './billing-error-codes';
import { WalkHead } from './ports/charge-report.reader.port';

const PURPOSE = 'charges-page-cursor';

/** Where the next page starts, and what the walk's first page fixed: snapshot and total. */
export interface PageCursor extends WalkHead {
  after: SortKey;
}

/** Tokens are a few hundred characters; a longer one was not made here. */
const MAX_TOKEN_CHARS = 4096;

/**
 * Digest of everything that defines the walk: the caller, the day range, the classes,
 * the format and the order. A token only continues the walk it was made for.
 */
export function walkDigest(userId: number, filter: ChargeFilter): string {
  const canonical = JSON.stringify([
    userId,
    filter.gte,
    filter.lte,
    filter.categories,
    filter.format,
    filter.latestFirst,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

/**
 * Opaque next_token: an HMAC-signed (SecretKeeper.sign) JSON payload holding the walk
 * digest (d), the last sort key of the page (v, s), the walk's snapshot (n) and total (t).
 */
export class PageCursorCodec {
  constructor(private readonly secrets: SecretKeeper) {}

  encode(userId: number, filter: ChargeFilter, cursor: PageCursor): string {
    const payload = {
      d: walkDigest(userId, filter),
      v: cursor.after.value,
      s: cursor.after.source,
      n: cursor.snapshot,
      t: cursor.total,
    };
    return this.secrets.sign(PURPOSE, JSON.stringify(payload));
  }

  /** The cursor of a token made for this caller and filter; otherwise 400 invalid_token. */
  decode(userId: number, filter: ChargeFilter, token: string): PageCursor {
    const cursor = this.tryDecode(userId, filter, token);
    if (!cursor) throw new BillingError(BILLING_ERROR_CODES.invalidToken, INVALID_TOKEN_MSG);
    return cursor;
  }

  private tryDecode(userId: number, filter: ChargeFilter, token: string): PageCursor | null {
    if (token.length > MAX_TOKEN_CHARS) return null;
    const payload = this.secrets.verify(PURPOSE, token);
    if (payload === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return null;
    }
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { d, v, s, n, t } = parsed as Record<string, unknown>;
    if (d !== walkDigest(userId, filter)) return null;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return null;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) return null;
    if (typeof s !== 'string' || typeof n !== 'string') return null;
    return { after: { value: v, source: s }, snapshot: n, total: t };
  }
}
