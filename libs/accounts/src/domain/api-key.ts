import {
  canonicalValue,
  IpAllowlist,
  parsePermissionDocument,
  PermissionDocumentJson,
  Permissions,
  permissionsWithin,
  ScalarValue,
} from '@app/platform';

/** An API key as its owner manages it (docs/access.md "Keys"); never the key itself. */
export interface ApiKey {
  id: number;
  userId: number;
  teamId: number | null;
  name: string | null;
  /** The key's first 8 characters, so people can tell keys apart. */
  prefix: string;
  permissions: Permissions;
  /** As given (ip_whitelist normalised), or null. */
  keyParams: KeyParamsJson | null;
  /** key_params.ip_whitelist, read. */
  ipAllowlist: IpAllowlist | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** The key `reset api-key` rotates; it cannot be deleted. */
  main: boolean;
}

export type KeyParamsJson = Record<string, ScalarValue | string[]>;

/** A key's key_params, read: the addresses it may be used from and the wildcard values. */
export interface KeyParams {
  ipAllowlist: IpAllowlist | null;
  /** The `{{name}}` values of the permission document. */
  wildcards: Record<string, ScalarValue>;
  /** What is stored and shown back. */
  json: KeyParamsJson;
}

export const API_KEY_POLICY = {
  nameMaxLength: 255,
  /** key_params entries: ip_whitelist and the wildcard values. */
  keyParamsMaxEntries: 32,
  wildcardValueMaxLength: 256,
  /** An expiry is at least a minute and at most ten years away. */
  minTtlSeconds: 60,
  maxTtlSeconds: 10 * 366 * 24 * 3600,
} as const;

const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * key_params as the public client sends it (a JSON object, or that object as a JSON
 * string: `--key_params` is passed through as text) or as anyone else does. `ip_whitelist`
 * lists addresses and CIDR ranges; every other entry is a scalar value for the
 * permission document's `{{name}}` wildcards.
 */
export function parseKeyParams(raw: unknown): Parsed<KeyParams | null> {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, problem: 'key_params: must be a JSON object (or its JSON text)' };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'key_params: must be a JSON object (or its JSON text)' };
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > API_KEY_POLICY.keyParamsMaxEntries)
    return {
      ok: false,
      problem: `key_params: at most ${API_KEY_POLICY.keyParamsMaxEntries} entries`,
    };
  let ipAllowlist: IpAllowlist | null = null;
  const wildcards: Record<string, ScalarValue> = {};
  const json: KeyParamsJson = {};
  for (const [name, entry] of entries) {
    if (name === 'ip_whitelist') {
      const parsed = IpAllowlist.parse(entry);
      if (!parsed.ok) return { ok: false, problem: parsed.problem };
      ipAllowlist = parsed.allowlist;
      json.ip_whitelist = [...parsed.allowlist.entries];
      continue;
    }
    if (!PARAM_NAME.test(name))
      return { ok: false, problem: `key_params.${name}: not a wildcard name` };
    const scalar = canonicalValue(entry);
    if (scalar === undefined)
      return {
        ok: false,
        problem: `key_params.${name}: a wildcard value is a number, a string, a boolean or null`,
      };
    if (typeof entry === 'string' && entry.length > API_KEY_POLICY.wildcardValueMaxLength)
      return {
        ok: false,
        problem: `key_params.${name}: at most ${API_KEY_POLICY.wildcardValueMaxLength} characters`,
      };
    wildcards[name] = scalar;
    json[name] = entry as ScalarValue;
  }
  return { ok: true, value: { ipAllowlist, wildcards, json } };
}

/** A key's name: optional, at most 255 characters. */
export function keyNameProblem(name: unknown): string | null {
  if (name === null || name === undefined) return null;
  if (typeof name !== 'string') return 'name: must be a string';
  if ([...name].length > API_KEY_POLICY.nameMaxLength)
    return `name: at most ${API_KEY_POLICY.nameMaxLength} characters`;
  return null;
}

/** A requested expiry: a time, or a lifetime counted from when the key is made. */
export type RequestedExpiry = { at: Date } | { ttlSeconds: number } | null;

/**
 * `expires_at` (epoch seconds, or an ISO 8601 time with its zone) or `ttl` (seconds), not
 * both; neither: the key never expires.
 */
export function parseExpiry(input: {
  expiresAt?: unknown;
  ttl?: unknown;
}): Parsed<RequestedExpiry> {
  const given = (value: unknown) => value !== undefined && value !== null;
  const { expiresAt, ttl } = input;
  if (given(expiresAt) && given(ttl))
    return { ok: false, problem: 'expires_at and ttl: give one of the two' };
  if (given(ttl)) {
    if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl))
      return { ok: false, problem: 'ttl: must be a whole number of seconds' };
    return { ok: true, value: { ttlSeconds: ttl } };
  }
  if (!given(expiresAt)) return { ok: true, value: null };
  let atMs = Number.NaN;
  if (typeof expiresAt === 'number' && Number.isFinite(expiresAt)) atMs = expiresAt * 1000;
  else if (
    typeof expiresAt === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(expiresAt)
  )
    atMs = Date.parse(expiresAt);
  if (Number.isNaN(atMs) || Math.abs(atMs) > 8.64e15)
    return {
      ok: false,
      problem:
        'expires_at: epoch seconds, or an ISO 8601 time with its zone (2027-01-31T00:00:00Z)',
    };
  return { ok: true, value: { at: new Date(atMs) } };
}

/** When a key asked for now expires (whole seconds), or why it cannot. */
export function expiryAt(requested: RequestedExpiry, nowMs: number): Parsed<Date | null> {
  if (requested === null) return { ok: true, value: null };
  const field = 'ttlSeconds' in requested ? 'ttl' : 'expires_at';
  const atMs =
    'ttlSeconds' in requested ? nowMs + requested.ttlSeconds * 1000 : requested.at.getTime();
  if (atMs < nowMs + API_KEY_POLICY.minTtlSeconds * 1000)
    return {
      ok: false,
      problem: `${field}: the key must live at least ${API_KEY_POLICY.minTtlSeconds} seconds`,
    };
  if (atMs > nowMs + API_KEY_POLICY.maxTtlSeconds * 1000)
    return { ok: false, problem: `${field}: at most ten years away` };
  return { ok: true, value: new Date(Math.floor(atMs / 1000) * 1000) };
}

/** What a credential may hand on: its permissions, addresses and lifetime. */
export interface Grant {
  permissions: Permissions;
  ipAllowlist: IpAllowlist | null;
  expiresAt: Date | null;
}

/**
 * No escalation (docs/access.md): a new key is within the key that makes it. Its
 * permissions are a subset (constraints included); its addresses lie within the parent's
 * ip_whitelist and its expiry is no later than the parent's, and a key that gives neither
 * takes the parent's. Returns the child as it is made, or what is beyond the parent.
 */
export function grantWithin(
  child: Grant,
  parent: Grant,
): { ok: true; grant: Grant } | { ok: false; beyond: string } {
  const permissions = permissionsWithin(child.permissions, parent.permissions);
  if (!permissions.within) return { ok: false, beyond: permissions.beyond };
  let ipAllowlist = child.ipAllowlist;
  if (parent.ipAllowlist) {
    if (ipAllowlist === null) ipAllowlist = parent.ipAllowlist;
    else if (!ipAllowlist.within(parent.ipAllowlist))
      return { ok: false, beyond: `ip_whitelist beyond ${parent.ipAllowlist.entries.join(', ')}` };
  }
  let expiresAt = child.expiresAt;
  if (parent.expiresAt) {
    if (expiresAt === null) expiresAt = parent.expiresAt;
    else if (expiresAt.getTime() > parent.expiresAt.getTime())
      return { ok: false, beyond: `an expiry after ${parent.expiresAt.toISOString()}` };
  }
  return { ok: true, grant: { permissions: child.permissions, ipAllowlist, expiresAt } };
}

/**
 * A stored permission document: written only after the api checked it, so it reads; one
 * that does not (changed by hand) allows nothing rather than everything.
 */
export function storedPermissions(json: PermissionDocumentJson | null): Permissions {
  const parsed = parsePermissionDocument(json);
  return parsed.ok ? parsed.permissions : { full: false, categories: new Map() };
}

/** A stored key_params' ip_whitelist; one that does not read allows no address. */
export function storedAllowlist(keyParams: KeyParamsJson | null): IpAllowlist | null {
  if (!keyParams || keyParams.ip_whitelist === undefined) return null;
  const parsed = IpAllowlist.parse(keyParams.ip_whitelist);
  return parsed.ok ? parsed.allowlist : IpAllowlist.nothing();
}
