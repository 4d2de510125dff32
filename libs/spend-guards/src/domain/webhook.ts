import ipaddr from 'ipaddr.js';

/** The event types an endpoint may subscribe to (docs/spend-guards.md "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = ['budget.threshold_crossed', 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** At most this many endpoints per owner (a user, or a team). */
export const WEBHOOKS_PER_OWNER = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2_048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;

/**
 * An endpoint the owner's events are posted to. `ownerKey` is the owner as billing keys
 * charges: the user's id, or minus the team's id in a team's context (billing's
 * `chargeOwnerKey`).
 * The signing secret is not part of it: only its ciphertext is stored, read by the
 * delivery alone.
 */
export interface Webhook {
  readonly id: string;
  readonly ownerKey: number;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description: string;
  readonly createdAt: Date;
}

/** A fresh endpoint's id: `wh_` and a random token (letters and digits). */
export function webhookId(token: string): string {
  return `wh_${token}`;
}

/** Ids this service makes: anything else names no endpoint (a 404, not a 400). */
export function isWebhookIdShape(id: string): boolean {
  return /^wh_[A-Za-z0-9]{1,64}$/.test(id);
}

/** A signing secret from 32 random bytes: `whsec_` and their base64url. */
export function webhookSecret(bytes: Buffer): string {
  return `whsec_${bytes.toString('base64url')}`;
}

/** What the secret's ciphertext is bound to (SecretKeeper's associated data). */
export function webhookSecretAad(id: string): string {
  return `webhook-secret:${id}`;
}

/**
 * Why `raw` cannot be an endpoint's URL, or null when it can. In production only https
 * reaches a receiver, and an address a receiver on the internet cannot have (loopback,
 * private, link-local, unique-local, ...) is refused, so no owner can make the service post
 * into its own network (docs/spend-guards.md "Decisions"); the worker checks the addresses a
 * name resolves to again before each attempt (isPublicAddress).
 */
export function webhookUrlProblem(raw: string, production: boolean): string | null {
  if (raw.length === 0) return 'url must not be empty';
  if (raw.length > WEBHOOK_URL_MAX_LENGTH)
    return `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(raw)) return 'url must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'url must be an absolute http or https URL';
  if (production && url.protocol !== 'https:') return 'url must use https';
  if (url.username !== '' || url.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(raw))
    return 'url must not contain credentials';
  if (raw.includes('#')) return 'url must not contain a fragment';
  if (url.hostname === '') return 'url must name a host';
  if (production && !isPublicHost(url.hostname))
    return 'url must name a public host (not a loopback, private or link-local address)';
  return null;
}

/** Hostnames that never leave the machine or its network, whatever they resolve to. */
const LOCAL_NAMES = /(^|\.)(localhost|localdomain|local|internal|home\.arpa)\.?$/i;

function isPublicHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(bare)) return isPublicAddress(bare);
  return !LOCAL_NAMES.test(bare) && bare.includes('.');
}

/**
 * True for a unicast address of the public internet; false for loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, reserved and unspecified ones
 * (an IPv4-mapped IPv6 address is judged as its IPv4 address).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** Why `events` cannot be an endpoint's subscription, or null when they can. */
export function webhookEventsProblem(events: readonly string[]): string | null {
  if (events.length === 0) return 'events must name at least one event type';
  const unknown = events.find((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined)
    return `events: unknown event type ${JSON.stringify(unknown.slice(0, 64))} (known: ${WEBHOOK_EVENT_TYPES.join(', ')})`;
  if (new Set(events).size !== events.length) return 'events must not repeat an event type';
  return null;
}

/** Why `description` cannot describe an endpoint, or null when it can. */
export function webhookDescriptionProblem(description: string): string | null {
  if (description.length > WEBHOOK_DESCRIPTION_MAX_LENGTH)
    return `description must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(description))
    return 'description must not contain control characters';
  return null;
}
