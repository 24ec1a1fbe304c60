/**
 * Name resolution for the gateway's pinned outbound connections (hub downloads, skills' fetch):
 * the resolver is a seam tests replace, and an address once checked is what the connection uses.
 */
import { lookup } from 'node:dns/promises';

/** An address an outbound connection goes to, checked once; the connection uses exactly it. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (the seam tests replace; the system resolver by default). */
export type HostResolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: HostResolver = (hostname) =>
  lookup(hostname, { all: true, order: 'verbatim' });
