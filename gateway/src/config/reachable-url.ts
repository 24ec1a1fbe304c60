const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0']);

/**
 * The URL a client on this machine uses to reach a gateway bound to `host:port`: a wildcard
 * bind (0.0.0.0, ::) is reached through 127.0.0.1, an IPv6 literal gets its brackets.
 */
export function gatewayUrl(host: string, port: number): string {
  const reachable = ANY_ADDRESS.has(host) ? '127.0.0.1' : host;
  const literal =
    reachable.includes(':') && !reachable.startsWith('[') ? `[${reachable}]` : reachable;
  return `http://${literal}:${port}`;
}
