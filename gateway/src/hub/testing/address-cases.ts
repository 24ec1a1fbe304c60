/**
 * The hub's address policy as cases: addresses a download must refuse with the default
 * configuration (with a word the refusal names), and public addresses it must allow. The
 * policy's tests run them against the sources; scripts/build.ts runs them against the
 * compiled policy in dist/, which must load the same ipaddr.js.
 */
export const PUBLIC_V4 = '93.184.216.34';

/** [address, a word of the refusal] with `allowPrivate` false. */
export const REFUSED_ADDRESSES: readonly (readonly [string, string])[] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['0.0.0.0', 'special-purpose'],
  ['224.0.0.1', 'special-purpose'],
  ['255.255.255.255', 'special-purpose'],
  ['::1', 'loopback'],
  ['::', 'special-purpose'],
  ['fe80::1', 'link-local'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['ff02::1', 'special-purpose'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['64:ff9b::7f00:1', 'special-purpose'],
  ['2002:7f00:1::', 'special-purpose'],
  // Ranges ipaddr.js 1.x does not know (it calls them unicast): benchmarking, deprecated
  // site-local, discard-only and ORCHIDv2.
  ['198.18.0.1', 'special-purpose'],
  ['fec0::1', 'site-local'],
  ['100::1', 'special-purpose'],
  ['2001:20::1', 'special-purpose'],
];

/** Public unicast addresses allowed with `allowPrivate` false. */
export const ALLOWED_ADDRESSES: readonly string[] = [
  PUBLIC_V4,
  '8.8.8.8',
  '2606:4700:4700::1111',
  `::ffff:${PUBLIC_V4}`,
];

/** Why `addressProblem` disagrees with the cases above; empty when it agrees with all. */
export function addressPolicyMismatches(
  addressProblem: (address: string, allowPrivate: boolean) => string | undefined,
): string[] {
  const mismatches: string[] = [];
  for (const [address, kind] of REFUSED_ADDRESSES) {
    const problem = addressProblem(address, false);
    if (problem === undefined || !problem.includes(kind))
      mismatches.push(`${address}: expected a refusal naming '${kind}', got ${String(problem)}`);
  }
  for (const address of ALLOWED_ADDRESSES) {
    const problem = addressProblem(address, false);
    if (problem !== undefined) mismatches.push(`${address}: expected allowed, got '${problem}'`);
  }
  return mismatches;
}
