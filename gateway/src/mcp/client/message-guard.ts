import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

export interface MessageGuardLimits {
  /** Messages and unreadable lines a server may send within `windowMs`; more is a flood. */
  maxEvents: number;
  windowMs: number;
}

export const DEFAULT_GUARD_LIMITS: MessageGuardLimits = { maxEvents: 2_000, windowMs: 1_000 };

/**
 * A transport in front of another that counts what an external server sends (messages, and
 * lines that are not JSON-RPC, which the SDK reports as errors). A server that sends more than
 * the limit within the window is flooding: `onAbuse` is told once, and the caller disconnects it.
 */
export class GuardedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #limits: MessageGuardLimits;
  readonly #onAbuse: (reason: string) => void;
  readonly #now: () => number;
  #windowStart = 0;
  #events = 0;
  #tripped = false;

  constructor(
    inner: Transport,
    limits: MessageGuardLimits,
    onAbuse: (reason: string) => void,
    now: () => number = () => performance.now(),
  ) {
    this.#inner = inner;
    this.#limits = limits;
    this.#onAbuse = onAbuse;
    this.#now = now;
    inner.onmessage = (message, extra) => {
      if (this.#count()) this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => {
      if (this.#count()) this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion = (version: string): void => {
    this.#inner.setProtocolVersion?.(version);
  };

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Counts one event; false once the server has flooded (nothing more is passed on). */
  #count(): boolean {
    if (this.#tripped) return false;
    const now = this.#now();
    if (now - this.#windowStart > this.#limits.windowMs) {
      this.#windowStart = now;
      this.#events = 0;
    }
    this.#events += 1;
    if (this.#events <= this.#limits.maxEvents) return true;
    this.#tripped = true;
    this.#onAbuse(
      `flooding: more than ${this.#limits.maxEvents} messages within ${this.#limits.windowMs} ms`,
    );
    return false;
  }
}
