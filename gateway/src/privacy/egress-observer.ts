import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IsLocal } from './local-hosts.ts';
import {
  fromHttp2Message,
  fromHttpClientMessage,
  fromUndiciMessage,
  targetOf,
  type OutboundRequest,
} from './outbound-request.ts';
import type { EgressSource } from './egress-source.ts';
import { redactUrl } from './redact-url.ts';
import type { SessionContext } from './session-context.ts';
import type { EgressEntry } from './types.ts';

export interface EgressObserverOptions {
  /** Which destinations are not egress; see `createIsLocal` for the default. */
  isLocal: IsLocal;
  /** Called synchronously in the request path: keep it fast. Errors are swallowed. */
  record: (entry: EgressEntry) => void;
  sessionContext: SessionContext;
  /** Who the request is made for (a skill); absent or unset: the gateway itself. */
  egressSource?: EgressSource;
  /** Epoch seconds. */
  now: () => number;
}

export interface EgressObserver {
  stop(): void;
}

/** The built-in channels that announce an outbound request, and how to read each message. */
const channels: readonly [string, (message: unknown) => OutboundRequest | null][] = [
  ['undici:request:create', fromUndiciMessage],
  ['http.client.request.created', fromHttpClientMessage],
  ['http.client.request.start', fromHttpClientMessage],
  ['http2.client.stream.created', fromHttp2Message],
];

/**
 * Observes every outbound HTTP(S) request of the process — global fetch and undici, node:http
 * and node:https, node:http2 — through `node:diagnostics_channel`, without wrapping any
 * client, and records the non-local ones with the session of the code that made them. A
 * node:http request is announced on creation and again when it is ended: it is recorded once,
 * at the first. Nothing here can throw into the request path.
 */
export function createEgressObserver(options: EgressObserverOptions): EgressObserver {
  const seen = new WeakSet<object>();
  const listeners = channels.map(([name, read]) => {
    const listener = (message: unknown): void => {
      try {
        const request = read(message);
        if (request === null || seen.has(request.source)) return;
        seen.add(request.source);
        const source = options.egressSource?.current() ?? null;
        // A request made for a skill is recorded wherever it goes (it only reaches public hosts).
        if (source === null && options.isLocal(targetOf(request.url))) return;
        options.record({
          session_id: options.sessionContext.current()?.sessionId ?? null,
          method: request.method.toUpperCase(),
          url: redactUrl(request.url.href),
          destination: request.url.host,
          timestamp: options.now(),
          ...(source !== null ? { source } : {}),
        });
      } catch {
        // The audit must never break the request it observes.
      }
    };
    subscribe(name, listener);
    return [name, listener] as const;
  });

  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      for (const [name, listener] of listeners) unsubscribe(name, listener);
    },
  };
}
