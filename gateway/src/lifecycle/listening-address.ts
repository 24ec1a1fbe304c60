import type { AddressInfo } from 'node:net';

/** Where a bound server listens. */
export interface ListeningAddress {
  host: string;
  port: number;
  url: string;
}

/** The address of a listening TCP server (its socket name), as the gateway reports it. */
export function listeningAddress(server: {
  address(): AddressInfo | string | null;
}): ListeningAddress {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { host: address.address, port: address.port, url: `http://${host}:${address.port}` };
}
