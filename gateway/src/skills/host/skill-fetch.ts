/**
 * A skill's network, made by the gateway: a skill host has no network of its own in any wall
 * (bubblewrap unshares it, the sidecar's containers have none), and the runtime's `fetch` asks
 * the gateway instead (`{"request":n,"method":"fetch","params":{url,method,headers,body}}`).
 * The gateway makes the request only when
 *   - the skill's manifest grants network (`network: true`) and declares the URL's host in
 *     `hosts` (exact DNS names, `name` meaning port 443 or `name:port`),
 *   - the URL is https (no credentials in it),
 *   - every address the name resolves to is public unicast (never loopback, private,
 *     link-local, CGNAT, metadata or other special ranges; the address policy of the hub's
 *     downloads, without its opt-in), and then it connects to exactly that checked address.
 * Redirects are followed by hand, each hop checked again the same way; request and response
 * bodies and the time are capped. Every connection is observed by the privacy audit inside
 * `attribute('skill:<name>', …)`; every refusal is recorded by `refused`. Nothing the skill
 * reports about its own traffic is ever recorded.
 */
import { isIP } from 'node:net';
import { addressProblem } from '../../http/outbound/address-policy.ts';
import type { PinnedFetch } from '../../http/outbound/pinned-fetch.ts';
import type { CheckedAddress, HostResolver } from '../../http/outbound/resolver.ts';
import type { SkillHostOptions } from '../types.ts';

export interface SkillFetchLimits {
  /** The largest request body (bytes, decoded). */
  maxRequestBytes: number;
  /** The largest response body (bytes). */
  maxResponseBytes: number;
  /** One fetch, redirects and body included. */
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_SKILL_FETCH_LIMITS: SkillFetchLimits = {
  maxRequestBytes: 128 * 1024,
  maxResponseBytes: 1024 * 1024,
  timeoutMs: 15_000,
  maxRedirects: 5,
};

/** What the gateway knows about the skill asking (from its manifest, never from the skill). */
export interface SkillEgressGrant {
  skill: string;
  network: boolean;
  hosts: readonly string[];
}

/** A request the gateway refused to make, for the privacy audit. */
export interface RefusedEgress {
  /** `skill:<name>`. */
  source: string;
  method: string;
  url: string;
  reason: string;
}

export interface SkillFetchDeps {
  fetch: PinnedFetch;
  resolve: HostResolver;
  /** Runs `work` so that the privacy audit attributes the requests it observes to `source`. */
  attribute: <T>(source: string, work: () => Promise<T>) => Promise<T>;
  refused: (entry: RefusedEgress) => void;
  limits?: Partial<SkillFetchLimits>;
}

/** What the skill sends (`params` of its request). */
export interface SkillFetchParams {
  url?: unknown;
  method?: unknown;
  headers?: unknown;
  /** base64 */
  body?: unknown;
  /** `follow` (default), `manual` (the 3xx is returned) or `error`. */
  redirect?: unknown;
}

/** What the skill gets back (the reply's `result`, as JSON text). */
export interface SkillFetchReply {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** base64 */
  body: string;
  url: string;
  redirected: boolean;
}

export type SkillFetch = (
  grant: SkillEgressGrant,
  params: SkillFetchParams,
  signal?: AbortSignal,
) => Promise<SkillFetchReply>;

/** The gateway's fetch for one running skill (the answer to its `fetch` requests). */
export type HostFetch = (params: SkillFetchParams, signal: AbortSignal) => Promise<SkillFetchReply>;

/** The gateway's fetch bound to one skill's manifest (what it declares, never what it says). */
export function hostFetch(fetch: SkillFetch | undefined, host: SkillHostOptions): HostFetch {
  const grant = { skill: host.name, network: host.network, hosts: [...(host.hosts ?? [])] };
  return fetch
    ? (params, signal) => fetch(grant, params, signal)
    : () => Promise.reject(new SkillFetchError(`skill ${host.name} has no network access`));
}

/** A refusal or failure; its message is what the skill's fetch rejects with. */
export class SkillFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkillFetchError';
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers the gateway sets itself (or that would steer the connection), never the skill. */
const DROPPED_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
]);
/** Dropped when a redirect leaves the origin (as browsers do). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie'];
const MAX_HEADERS = 64;
const MAX_URL_LENGTH = 8192;

/** A declared host: a lower-case DNS name (no IP literal, no wildcard) with an optional port. */
const HOST_PATTERN =
  /^(?=.{1,253}(?::|$))(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?(?::(\d{1,5}))?$/;

/** Why `entry` is not a host a manifest may declare, or undefined. */
export function declaredHostProblem(entry: string): string | undefined {
  const match = HOST_PATTERN.exec(entry);
  if (!match) return `${JSON.stringify(entry)} is not a DNS name (optionally with :port)`;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))
    return `${JSON.stringify(entry)} has no valid port`;
  return undefined;
}

/** Whether `url` (https) goes to one of `hosts`: `name` means port 443, `name:port` that port. */
function declared(url: URL, hosts: readonly string[]): boolean {
  const port = url.port === '' ? '443' : url.port;
  return hosts.some((entry) => {
    const at = entry.lastIndexOf(':');
    const name = at === -1 ? entry : entry.slice(0, at);
    const entryPort = at === -1 ? '443' : entry.slice(at + 1);
    return name === url.hostname && entryPort === port;
  });
}

export function createSkillFetch(deps: SkillFetchDeps): SkillFetch {
  const limits = { ...DEFAULT_SKILL_FETCH_LIMITS, ...deps.limits };

  return async (grant, params, callSignal) => {
    const source = `skill:${grant.skill}`;
    let method = typeof params.method === 'string' ? params.method.toUpperCase() : 'GET';
    const rawUrl = typeof params.url === 'string' ? params.url.slice(0, MAX_URL_LENGTH) : '';
    const refuse = (url: string, reason: string): SkillFetchError => {
      deps.refused({ source, method: method.slice(0, 16), url, reason });
      return new SkillFetchError(`fetch ${url || '(no URL)'} refused: ${reason}`);
    };

    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw refuse(rawUrl, 'not a valid absolute URL');
    }
    if (!METHODS.has(method)) throw refuse(url.href, `method ${method.slice(0, 16)} not allowed`);
    let body = decodeBody(params.body);
    if (body === null) throw refuse(url.href, 'the body must be base64 text');
    if (body && body.byteLength > limits.maxRequestBytes)
      throw refuse(url.href, `the request body exceeds ${limits.maxRequestBytes} bytes`);
    if (body && (method === 'GET' || method === 'HEAD'))
      throw refuse(url.href, `a ${method} request has no body`);
    let headers = readHeaders(params.headers);
    if (headers === null) throw refuse(url.href, 'headers must be [name, value] text pairs');
    const redirect =
      params.redirect === 'manual' || params.redirect === 'error' ? params.redirect : 'follow';

    const signal = callSignal
      ? AbortSignal.any([callSignal, AbortSignal.timeout(limits.timeoutMs)])
      : AbortSignal.timeout(limits.timeoutMs);
    const start = url.href;
    try {
      for (let hop = 0; ; hop += 1) {
        const problem = urlProblem(url, grant);
        if (problem !== undefined) throw refuse(url.href, problem);
        const checked = await untilAborted(checkAddresses(url, deps.resolve), signal);
        if (typeof checked === 'string') throw refuse(url.href, checked);
        const target = url;
        const init = { signal, headers: headerRecord(headers), method, ...(body ? { body } : {}) };
        const response = await deps.attribute(source, () => deps.fetch(target, checked, init));
        if (REDIRECTS.has(response.status) && redirect !== 'manual') {
          await response.body?.cancel();
          if (redirect === 'error') throw new SkillFetchError(`fetch ${start}: redirected`);
          if (hop >= limits.maxRedirects)
            throw new SkillFetchError(`fetch ${start}: more than ${limits.maxRedirects} redirects`);
          const next = nextHop(url, response.headers.get('location'));
          if (typeof next === 'string') throw refuse(url.href, next);
          if (next.origin !== url.origin) {
            headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.includes(name));
          }
          // As fetch does: 303 (and 301/302 after a POST) continue as a GET without a body.
          if (
            response.status === 303 ||
            ((response.status === 301 || response.status === 302) && method === 'POST')
          ) {
            if (method !== 'HEAD') method = 'GET';
            body = undefined;
            headers = headers.filter(([name]) => !name.startsWith('content-'));
          }
          url = next;
          continue;
        }
        const bytes = await readCapped(response, limits.maxResponseBytes);
        return {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers],
          body: Buffer.from(bytes).toString('base64'),
          url: url.href,
          redirected: hop > 0,
        };
      }
    } catch (error) {
      if (error instanceof SkillFetchError) throw error;
      if (signal.aborted && !callSignal?.aborted)
        throw new SkillFetchError(`fetch ${start}: took longer than ${limits.timeoutMs} ms`);
      throw new SkillFetchError(`fetch ${url.href} failed (${failureOf(error)})`);
    }
  };
}

/** Why the gateway will not fetch `url` for this skill, before anything is resolved. */
function urlProblem(url: URL, grant: SkillEgressGrant): string | undefined {
  if (!grant.network)
    return `skill ${grant.skill} has no network access (its skill.json sets network: false)`;
  if (grant.hosts.length === 0)
    return `skill ${grant.skill} declares no hosts (skill.json "hosts" is empty): no network`;
  if (url.protocol !== 'https:')
    return `only https URLs are fetched (not ${url.protocol.replace(/:$/, '')}:)`;
  if (url.username !== '' || url.password !== '') return 'the URL holds credentials';
  if (isIP(url.hostname.replace(/^\[(.*)\]$/, '$1')) !== 0)
    return `${url.host} is an address, not a declared host name`;
  if (!declared(url, grant.hosts))
    return `${url.host} is not among the hosts skill ${grant.skill} declares (${grant.hosts.join(', ')})`;
  return undefined;
}

/** The one address to connect to, or why none: every address of the name must be public. */
async function checkAddresses(url: URL, resolve: HostResolver): Promise<CheckedAddress | string> {
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(url.hostname);
  } catch (error) {
    return `${url.hostname} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'failed'})`;
  }
  if (addresses.length === 0) return `${url.hostname} could not be resolved (no address)`;
  for (const { address } of addresses) {
    const problem = addressProblem(address, false);
    if (problem !== undefined)
      return `${url.hostname} is a name for ${problem}; skills reach public hosts only`;
  }
  const first = addresses[0]!;
  return { address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}

function nextHop(from: URL, location: string | null): URL | string {
  if (!location) return 'a redirect without a Location';
  try {
    const next = new URL(location, from);
    next.hash = '';
    return next;
  } catch {
    return 'a redirect to an invalid URL';
  }
}

/** The skill's headers as lower-case pairs, without the ones the gateway owns; null if malformed. */
function readHeaders(value: unknown): [string, string][] | null {
  if (value === undefined || value === null) return [];
  const pairs = Array.isArray(value)
    ? value
    : typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
      : null;
  if (pairs === null || pairs.length > MAX_HEADERS) return null;
  const headers: [string, string][] = [];
  for (const pair of pairs) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string')
      return null;
    const name = pair[0].toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || /[\r\n\0]/.test(pair[1])) return null;
    if (DROPPED_HEADERS.has(name) || name.startsWith('proxy-')) continue;
    headers.push([name, pair[1]]);
  }
  return headers;
}

/** Pairs as one record; a name given twice gets its values joined, as fetch's Headers does. */
function headerRecord(pairs: readonly [string, string][]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of pairs)
    record[name] = Object.hasOwn(record, name) ? `${record[name]}, ${value}` : value;
  return record;
}

/** undefined: no body; null: not base64 text. */
function decodeBody(value: unknown): Uint8Array | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return null;
  return new Uint8Array(Buffer.from(value, 'base64'));
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new SkillFetchError(`the response is larger than ${maxBytes} bytes`);
  const declaredLength = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declaredLength > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
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
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/** A resolver that ignores the signal still cannot outlast the fetch's timeout. */
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

function failureOf(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return error instanceof Error ? error.message : String(error);
}
