import { HearthError, validationError } from '../errors.ts';
import { decodeDataUrl, tooLarge } from './data-url.ts';
import { checkHost, type HostResolver } from './host-resolver.ts';
import type { PackageUrl } from './package-url.ts';
import type { PinnedFetch } from './pinned-fetch.ts';

/** How the hub reaches the network: one resolution per hop, then a pinned connection. */
export interface HubNetwork {
  fetch: PinnedFetch;
  resolve: HostResolver;
  /** `[security] hub_allow_private_hosts`: loopback, private, link-local and CGNAT hosts too. */
  allowPrivateHosts: boolean;
}

export interface HubFetchLimits {
  /** The largest package, in bytes (256 KiB by default, the skills store's own limit). */
  maxBytes: number;
  /** The whole fetch, redirects and body included. */
  timeoutMs: number;
  /** Redirects followed; each must lead to another https URL. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: HubFetchLimits = {
  maxBytes: 262_144,
  timeoutMs: 20_000,
  maxRedirects: 5,
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The bytes of a package: a data: URL decoded here, an https URL fetched over the network.
 * Every hop's host is checked first (host-resolver.ts: public addresses only unless opted in,
 * resolved once) and the connection goes to that checked address (pinned-fetch.ts).
 * Redirects are followed by hand (at most `maxRedirects`, each to an https URL, else a 422),
 * the body is read up to `maxBytes` (a 413 beyond, whatever Content-Length says), and the whole
 * fetch is bounded by `timeoutMs` (a 502). Nothing is written anywhere.
 */
export async function fetchPackage(
  source: PackageUrl,
  network: HubNetwork,
  limits: HubFetchLimits,
): Promise<Uint8Array> {
  if (source.kind === 'data') return decodeDataUrl(source.text, limits.maxBytes);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    let url = source.url;
    for (let hop = 0; ; hop += 1) {
      const checked = await untilAborted(checkHost(url, network), signal);
      const response = await network.fetch(url, checked, {
        signal,
        headers: { accept: 'text/plain, application/javascript, text/x-python, */*' },
      });
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        if (hop >= limits.maxRedirects)
          throw upstream(`more than ${limits.maxRedirects} redirects from ${source.url.href}`);
        url = nextHop(url, response.headers.get('location'));
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw upstream(`fetching ${url.href} answered ${response.status}`);
      }
      return await readCapped(response, limits.maxBytes);
    }
  } catch (error) {
    if (error instanceof HearthError) throw error;
    if (signal.aborted)
      throw upstream(`fetching ${source.url.href} took longer than ${limits.timeoutMs} ms`);
    throw upstream(`fetching ${source.url.href} failed (${failureOf(error)})`);
  }
}

/** A resolver that ignores the signal still cannot outlast the download's timeout. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error as Error)),
    );
  });
}

function nextHop(from: URL, location: string | null): URL {
  if (!location) throw upstream(`${from.href} redirects without a Location`);
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw upstream(`${from.href} redirects to an invalid URL`);
  }
  if (next.protocol !== 'https:')
    throw validationError(
      `url: ${from.href} redirects to a ${next.protocol.replace(/:$/, '')}: URL; only https redirects are followed`,
    );
  if (next.username !== '' || next.password !== '')
    throw validationError(`url: ${from.href} redirects to a URL with credentials`);
  next.hash = '';
  return next;
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

function upstream(message: string): HearthError {
  return new HearthError('upstream', message);
}

function failureOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return error instanceof Error ? error.message : String(error);
}
