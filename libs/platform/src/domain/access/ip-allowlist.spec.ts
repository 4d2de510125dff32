import { IpAllowlist } from './ip-allowlist';

function list(raw: unknown): IpAllowlist {
  const result = IpAllowlist.parse(raw);
  if (!result.ok) throw new Error(result.problem);
  return result.allowlist;
}

describe('IpAllowlist', () => {
  it('allows the listed addresses and the addresses of the listed ranges only', () => {
    const allowlist = list(['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']);
    expect(allowlist.allows('203.0.113.7')).toBe(true);
    expect(allowlist.allows('203.0.113.8')).toBe(false);
    expect(allowlist.allows('10.255.0.1')).toBe(true);
    expect(allowlist.allows('11.0.0.1')).toBe(false);
    expect(allowlist.allows('2001:db8:1::5')).toBe(true);
    expect(allowlist.allows('2001:db9::5')).toBe(false);
    expect(allowlist.allows(undefined)).toBe(false);
    expect(allowlist.allows('garbage')).toBe(false);
  });

  it('reads IPv4-mapped IPv6 (a dual-stack socket) as the IPv4 address, on both sides', () => {
    expect(list(['127.0.0.1']).allows('::ffff:127.0.0.1')).toBe(true);
    expect(list(['::ffff:10.1.0.0/112']).allows('10.1.2.3')).toBe(true);
    expect(list(['::ffff:10.1.0.0/112']).entries).toEqual(['10.1.0.0/16']);
  });

  it('normalises entries: a range to its network, a comma-separated string to a list', () => {
    expect(list('10.1.2.3/8, 2001:DB8:0:0::1').entries).toEqual(['10.0.0.0/8', '2001:db8::1']);
  });

  it('refuses what is no address or range, naming the entry', () => {
    expect(IpAllowlist.parse(['10.0.0.1', 'example.com'])).toEqual({
      ok: false,
      problem: 'key_params.ip_whitelist[1]: not an IPv4 or IPv6 address or CIDR range',
    });
    for (const bad of [[], '', 'x', ['10.0.0.0/33'], ['127.1'], ['0x7f.0.0.1'], [7]])
      expect(IpAllowlist.parse(bad).ok).toBe(false);
  });

  it('within: every range of the child lies in a range of the parent', () => {
    const parent = list(['10.0.0.0/8', '203.0.113.7']);
    expect(list(['10.2.0.0/16', '203.0.113.7']).within(parent)).toBe(true);
    expect(list(['10.0.0.0/7']).within(parent)).toBe(false);
    expect(list(['203.0.113.0/24']).within(parent)).toBe(false);
    expect(list(['::1']).within(parent)).toBe(false);
  });
});
