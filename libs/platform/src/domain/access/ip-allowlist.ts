import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One allowed range: an address is the range of its full prefix length. */
interface AddressRange {
  readonly network: Address;
  readonly prefix: number;
}

/** At most this many entries: far more than any real list, and a bound on each check. */
export const IP_ALLOWLIST_MAX_ENTRIES = 100;

/**
 * The addresses a key may be used from (its `ip_whitelist`, docs/access.md): IPv4 and
 * IPv6 addresses and CIDR ranges. An IPv4 address written or seen as IPv4-mapped IPv6
 * (`::ffff:10.0.0.7`, as a dual-stack socket reports it) is that IPv4 address.
 */
export class IpAllowlist {
  private constructor(
    private readonly ranges: readonly AddressRange[],
    /** The entries in their normal form (`10.0.0.0/8`, `203.0.113.7`, `2001:db8::/32`). */
    readonly entries: readonly string[],
  ) {}

  /** A list that allows no address: what a stored list that no longer reads fails to. */
  static nothing(): IpAllowlist {
    return new IpAllowlist([], []);
  }

  /** The list from a key's `ip_whitelist` (an array, or one string of comma-separated entries). */
  static parse(
    raw: unknown,
    path = 'key_params.ip_whitelist',
  ): { ok: true; allowlist: IpAllowlist } | { ok: false; problem: string } {
    const items =
      typeof raw === 'string' ? raw.split(/[\s,]+/).filter((item) => item.length > 0) : raw;
    if (!Array.isArray(items) || items.length === 0)
      return {
        ok: false,
        problem: `${path}: must be a non-empty list of addresses or CIDR ranges`,
      };
    if (items.length > IP_ALLOWLIST_MAX_ENTRIES)
      return { ok: false, problem: `${path}: at most ${IP_ALLOWLIST_MAX_ENTRIES} entries` };
    const ranges: AddressRange[] = [];
    for (const [index, item] of items.entries()) {
      const range = typeof item === 'string' ? parseRange(item.trim()) : null;
      if (range === null)
        return {
          ok: false,
          problem: `${path}[${index}]: not an IPv4 or IPv6 address or CIDR range`,
        };
      ranges.push(range);
    }
    return { ok: true, allowlist: new IpAllowlist(ranges, ranges.map(formatRange)) };
  }

  /** True when `address` (a request's client address) lies in one of the ranges. */
  allows(address: string | null | undefined): boolean {
    const parsed = address ? parseAddress(address) : null;
    if (parsed === null) return false;
    return this.ranges.some(
      (range) =>
        range.network.kind() === parsed.kind() && parsed.match(range.network, range.prefix),
    );
  }

  /** True when every address this list allows, `parent` allows too. */
  within(parent: IpAllowlist): boolean {
    return this.ranges.every((range) =>
      parent.ranges.some(
        (outer) =>
          outer.network.kind() === range.network.kind() &&
          range.prefix >= outer.prefix &&
          range.network.match(outer.network, outer.prefix),
      ),
    );
  }
}

/** An address, IPv4-mapped IPv6 turned into IPv4; null when it is none. */
function parseAddress(text: string): Address | null {
  if (text.includes(':')) {
    if (!ipaddr.IPv6.isValid(text)) return null;
    const address = ipaddr.IPv6.parse(text);
    return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
  }
  // Only dotted quads: ipaddr also reads "0x7f.1" and "127.1", which nobody means here.
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
}

function parseRange(text: string): AddressRange | null {
  const slash = text.indexOf('/');
  const address = parseAddress(slash < 0 ? text : text.slice(0, slash));
  if (address === null) return null;
  const written = slash < 0 ? null : text.slice(slash + 1);
  const mappedFrom = slash >= 0 && address.kind() === 'ipv4' && text.includes(':');
  const width = address.kind() === 'ipv4' ? 32 : 128;
  let prefix = width;
  if (written !== null) {
    if (!/^\d{1,3}$/.test(written)) return null;
    // A mapped range (::ffff:10.0.0.0/104) is the IPv4 range of its last 32 bits.
    prefix = Number(written) - (mappedFrom ? 96 : 0);
    if (prefix < 0 || prefix > width) return null;
  }
  const network = networkOf(address, prefix);
  return { network, prefix };
}

function networkOf(address: Address, prefix: number): Address {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) {
    bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  }
  return ipaddr.fromByteArray(bytes);
}

function formatRange(range: AddressRange): string {
  const width = range.network.kind() === 'ipv4' ? 32 : 128;
  const text =
    range.network.kind() === 'ipv6'
      ? (range.network as ipaddr.IPv6).toRFC5952String()
      : range.network.toString();
  return range.prefix === width ? text : `${text}/${range.prefix}`;
}
