import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { isLoopback, normaliseHostname, parseLocalHost } from './local-hosts.ts';

/** Every address `hostname` resolves to. */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const privateRanges = new BlockList();
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('fc00::', 7, 'ipv6');

/** RFC 1918 (10/8, 172.16/12, 192.168/16) or an IPv6 unique local address (fc00::/7). */
export function isPrivateAddress(address: string): boolean {
  const bare = normaliseHostname(address);
  const family = isIP(bare);
  if (family === 4) return privateRanges.check(bare, 'ipv4');
  if (family === 6) return privateRanges.check(bare, 'ipv6');
  return false;
}

export interface ConfirmLocalHostsOptions {
  /** The configured services that claim to be local: the local runtime, the vector store. */
  candidates: readonly string[];
  /** Whether the owner confirmed that private addresses are the own stack's services. */
  trustPrivate: boolean;
  resolve?: ResolveHost;
  /** How long one name may take to resolve; an unresolved name is not exempted. */
  timeoutMs?: number;
}

export interface ConfirmedLocalHosts {
  /** Entries exempt from the audit. */
  local: string[];
  /** Entries that stay audited, with why. */
  audited: { entry: string; addresses: readonly string[]; reason: string }[];
}

/**
 * Decides which configured services the privacy audit may exempt, by the addresses they
 * resolve to rather than by their names: an entry is exempt only when every address is
 * loopback, or is private (RFC 1918, fc00::/7) and the owner confirmed private addresses as
 * the own stack (`security.trust_private_services`). Anything else — a public address, a mix,
 * a name that does not resolve in time — stays audited like any other destination.
 */
export async function confirmLocalHosts(
  options: ConfirmLocalHostsOptions,
): Promise<ConfirmedLocalHosts> {
  const resolve = options.resolve ?? resolveWithDns;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const result: ConfirmedLocalHosts = { local: [], audited: [] };
  for (const entry of options.candidates) {
    const { hostname } = parseLocalHost(entry);
    let addresses: readonly string[];
    if (isIP(hostname) !== 0 || isLoopback(hostname)) addresses = [hostname];
    else {
      try {
        addresses = await withTimeout(resolve(hostname), timeoutMs);
      } catch (error) {
        result.audited.push({
          entry,
          addresses: [],
          reason: `not resolved: ${error instanceof Error ? error.message : String(error)}`,
        });
        continue;
      }
    }
    const local =
      addresses.length > 0 &&
      addresses.every(
        (address) => isLoopback(address) || (options.trustPrivate && isPrivateAddress(address)),
      );
    if (local) result.local.push(entry);
    else
      result.audited.push({
        entry,
        addresses,
        reason: options.trustPrivate
          ? 'resolves to an address that is neither loopback nor private'
          : 'resolves to an address that is not loopback (private ones count as local only with security.trust_private_services)',
      });
  }
  return result;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
