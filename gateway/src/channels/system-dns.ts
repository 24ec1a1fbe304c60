import { Resolver } from 'node:dns/promises';
import type { TxtResolver } from './ports.ts';

/** Per try, and tries per lookup: a mail's sender check waits on it, and so does the next mail. */
const TIMEOUT_MS = 2_000;
const TRIES = 2;

/** TXT lookups through the system's DNS servers (/etc/resolv.conf), failing within seconds. */
export function systemTxtResolver(): TxtResolver {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  return (name) => resolver.resolveTxt(name);
}
