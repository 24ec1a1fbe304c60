import { BlockList, isIP } from 'node:net';

/** Where an outbound request goes, as parsed from its URL. */
export interface EgressTarget {
  /** Lower-case host name or IP address, IPv6 without brackets, no trailing dot. */
  hostname: string;
  /** The effective port (the scheme's default when the URL names none). */
  port: number;
}

export type IsLocal = (target: EgressTarget) => boolean;

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
// Connecting to the unspecified address reaches this machine too.
loopback.addAddress('0.0.0.0', 'ipv4');
loopback.addAddress('::', 'ipv6');

/**
 * Loopback is never egress: `localhost` and `*.localhost`, 127.0.0.0/8, ::1 (also written as an
 * IPv4-mapped address), and the unspecified addresses 0.0.0.0 and ::.
 */
export function isLoopback(hostname: string): boolean {
  const bare = normaliseHostname(hostname);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  const family = isIP(bare);
  if (family === 4) return loopback.check(bare, 'ipv4');
  if (family === 6) return loopback.check(bare, 'ipv6');
  return false;
}

interface LocalHost {
  hostname: string;
  /** null: any port. */
  port: number | null;
}

/**
 * The default predicate: loopback, plus each of `localHosts` — the local runtime and other
 * services of the own stack. An entry is `host` (any port), `host:port`, `[v6]:port`, or a URL
 * (`http://ollama:11434`, whose port defaults to the scheme's).
 */
export function createIsLocal(localHosts: readonly string[]): IsLocal {
  const entries = localHosts.map(parseLocalHost);
  return (target) => {
    if (isLoopback(target.hostname)) return true;
    const hostname = normaliseHostname(target.hostname);
    return entries.some(
      (entry) => entry.hostname === hostname && (entry.port === null || entry.port === target.port),
    );
  };
}

export function parseLocalHost(entry: string): LocalHost {
  const trimmed = entry.trim();
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(isUrl ? trimmed : `http://${trimmed}`);
  } catch (error) {
    throw new Error(`Not a host, host:port or URL: ${entry}`, { cause: error });
  }
  const hostname = normaliseHostname(url.hostname);
  if (isUrl)
    return { hostname, port: url.port === '' ? defaultPort(url.protocol) : Number(url.port) };
  // Read the port from the entry itself: new URL drops `:80` as the http default.
  const explicitPort = /^(?:\[[^\]]*\]|[^:]*):(\d+)$/.exec(trimmed)?.[1];
  return { hostname, port: explicitPort === undefined ? null : Number(explicitPort) };
}

export function normaliseHostname(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

export function defaultPort(protocol: string): number | null {
  switch (protocol) {
    case 'http:':
    case 'ws:':
      return 80;
    case 'https:':
    case 'wss:':
      return 443;
    default:
      return null;
  }
}
