import { createHash } from 'node:crypto';
import { SecretKeeper } from '@app/platform';
import { ChargeFilter, SortKey } from '../domain/charge-report';
import { BillingError, INVALID_TOKEN_MSG } from '../domain/errors';
import { WalkHead } from './ports/charge-report.reader.port';

const PURPOSE = 'charges-page-cursor';

/** Where the next page starts, and what the walk's first page fixed: snapshot and total. */
export interface PageCursor extends WalkHead {
  after: SortKey;
}

/** Tokens are a few hundred characters; a longer one was not made here. */
const MAX_TOKEN_CHARS = 4096;

/** The signed payload: walk digest, last sort key (value, source), snapshot, total. */
interface CursorPayload {
  d: string;
  v: number;
  s: string;
  n: string;
  t: number;
}

function isCursorPayload(value: unknown): value is CursorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const { d, v, s, n, t } = value as Partial<Record<keyof CursorPayload, unknown>>;
  return (
    typeof d === 'string' &&
    typeof v === 'number' &&
    Number.isSafeInteger(v) &&
    typeof t === 'number' &&
    Number.isSafeInteger(t) &&
    t >= 0 &&
    typeof s === 'string' &&
    typeof n === 'string'
  );
}

/**
 * Digest of everything that defines the walk: the owner (its key), the day range, the classes,
 * the format and the order. A token only continues the walk it was made for.
 */
export function walkDigest(ownerKey: number, filter: ChargeFilter): string {
  const canonical = JSON.stringify([
    ownerKey,
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

  encode(ownerKey: number, filter: ChargeFilter, cursor: PageCursor): string {
    const payload: CursorPayload = {
      d: walkDigest(ownerKey, filter),
      v: cursor.after.value,
      s: cursor.after.source,
      n: cursor.snapshot,
      t: cursor.total,
    };
    return this.secrets.sign(PURPOSE, JSON.stringify(payload));
  }

  /** The cursor of a token made for this caller and filter; otherwise 400 invalid_token. */
  decode(ownerKey: number, filter: ChargeFilter, token: string): PageCursor {
    const cursor = this.tryDecode(ownerKey, filter, token);
    if (!cursor) throw new BillingError('invalid_token', INVALID_TOKEN_MSG);
    return cursor;
  }

  private tryDecode(ownerKey: number, filter: ChargeFilter, token: string): PageCursor | null {
    if (token.length > MAX_TOKEN_CHARS) return null;
    const payload = this.secrets.verify(PURPOSE, token);
    if (payload === null) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return null;
    }
    if (!isCursorPayload(parsed) || parsed.d !== walkDigest(ownerKey, filter)) return null;
    return { after: { value: parsed.v, source: parsed.s }, snapshot: parsed.n, total: parsed.t };
  }
}
