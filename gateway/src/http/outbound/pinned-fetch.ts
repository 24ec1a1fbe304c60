import type { CheckedAddress } from './resolver.ts';

/**
 * One request (GET unless `method` says otherwise) of `url` over a connection to `address`
 * (already checked), never to whatever a new DNS lookup would answer, so a name cannot be
 * rebound between the check and the connection. TLS still verifies the certificate against the
 * URL's host name. Redirects are not followed.
 */
export type PinnedFetch = (
  url: URL,
  address: CheckedAddress,
  init: {
    signal: AbortSignal;
    headers: Record<string, string>;
    method?: string;
    body?: Uint8Array;
  },
) => Promise<Response>;

type LookupCallback = (
  error: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * The pinned adapter (hub downloads, skills' fetch): undici's fetch with a one-request Agent whose connector's lookup
 * answers only the checked address. `ca` replaces the trusted roots (tests' throwaway server).
 */
export function createPinnedFetch(options: { ca?: string } = {}): PinnedFetch {
  return async (url, checked, init) => {
    // undici (~110 modules) loads on the first use, not at start-up (idle memory).
    const { Agent, fetch: undiciFetch } = await import('undici');
    const agent = new Agent({
      connections: 1,
      connect: {
        ...(options.ca ? { ca: options.ca } : {}),
        lookup: (_hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback) => {
          if (lookupOptions.all) callback(null, [checked]);
          else callback(null, checked.address, checked.family);
        },
      },
    });
    try {
      const response = await undiciFetch(url, {
        redirect: 'manual',
        signal: init.signal,
        headers: init.headers,
        ...(init.method ? { method: init.method } : {}),
        ...(init.body ? { body: init.body } : {}),
        dispatcher: agent,
      });
      // Closes once the body has been read (or cancelled); nothing else uses this agent.
      agent.close().catch(() => undefined);
      return response;
    } catch (error) {
      agent.destroy().catch(() => undefined);
      throw error;
    }
  };
}
