import ipaddr from 'ipaddr.js';

/** ipaddr.js range names, as a refusal says them. */
const PRIVATE_RANGES: ReadonlyMap<string, string> = new Map([
  ['loopback', 'loopback'],
  ['private', 'private'],
  ['uniqueLocal', 'private (unique local)'],
  ['linkLocal', 'link-local'],
  ['carrierGradeNat', 'carrier-grade NAT'],
  ['deprecatedSiteLocal', 'site-local'],
]);

/**
 * Why an outbound connection (a hub download, a skill's fetch) may not go to `address`, or
 * undefined when it may. Only ordinary public unicast is allowed; an IPv4-mapped IPv6 address
 * is judged as the IPv4 address it carries. Loopback, private, link-local and carrier-grade NAT
 * ranges are allowed only with `allowPrivate` (the hub's `[security] hub_allow_private_hosts`;
 * skills never); unspecified, multicast, broadcast and the other special-purpose ranges (6to4,
 * Teredo, NAT64, documentation, reserved, the 169.254.169.254 metadata address…) never are.
 */
export function addressProblem(address: string, allowPrivate: boolean): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  const privateName = PRIVATE_RANGES.get(range);
  if (privateName !== undefined)
    return allowPrivate ? undefined : `a ${privateName} address (${parsed.toString()})`;
  return `a special-purpose address (${range}: ${parsed.toString()})`;
}
