import proxyAddr from 'proxy-addr';

/** Express's names for address families, beside addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUSTED_PROXIES`: comma-separated addresses, CIDR ranges and the names loopback,
 * linklocal, uniquelocal; `none` trusts no proxy. What Express's `trust proxy` takes (the
 * client address of every record and limit) and whose `traceparent` tracing follows, so it
 * is read by proxy-addr, the parser Express itself uses. The list, or the problem with it.
 */
export function parseTrustedProxies(setting: string): string[] | string {
  const raw = setting.trim();
  if (raw.toLowerCase() === 'none') return [];
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(entries);
    return entries;
  } catch {
    return (
      `TRUSTED_PROXIES must list addresses, CIDR ranges, ${PROXY_NAMES.join(', ')}, or be none ` +
      `(got '${setting}')`
    );
  }
}

export const DEFAULT_TRUSTED_PROXIES = 'loopback';
