/**
 * The channel port: what a messaging network looks like to Hearth. Types only; each adapter
 * lives in a sibling folder (`webhook/`, `telegram/`, …), is built by `build-adapter.ts`, and
 * passes `runChannelConformance` (conformance.ts) against its network's far end.
 *
 * An adapter only moves text: who may talk, rate limits, sessions, storage, splitting long
 * replies and approval notices are the channel service's job, the same for every network.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { ChannelType } from '../config/schema.ts';

/** One text message that arrived from the network. */
export interface InboundMessage {
  /** The network's id of this message, when it has one (duplicates are dropped by it). */
  id?: string;
  /** Where a reply goes: the sender for a direct message, the group otherwise. */
  chatId: string;
  /** Who sent it; pairing and `allow_from` are by this id. */
  senderId: string;
  senderName?: string;
  text: string;
  /** A one-to-one conversation with the bot. */
  direct: boolean;
  /** In a group: the bot was mentioned or replied to. */
  mentioned: boolean;
  /**
   * The text relays someone else's words (a forwarded message or mail): who, as the network
   * names them. The turn then holds untrusted content (kind `channel`), whoever sent it.
   */
  forwardedFrom?: string;
}

/** What the channel service gives an adapter when it connects. */
export interface ChannelLink {
  /**
   * Hands over one inbound message. Resolves once it is stored (the adapter may acknowledge it
   * to the network then); the turn it starts runs in the background.
   */
  receive(message: InboundMessage): Promise<void>;
  /** The connection is up (true) or down (false) while the adapter retries by itself. */
  health(up: boolean, reason?: string): void;
  /** The connection is gone and the adapter will not retry: the service reconnects with backoff. */
  lost(error: unknown): void;
  /** Something from the network was refused (malformed, forged, replayed): counted and logged. */
  rejected(reason: string): void;
  /**
   * Claims `key` (a delivery's signature, an update id) for this channel until `untilMs` (epoch
   * ms): true the first time, false while an earlier claim holds — a replayed or repeated
   * delivery. Kept in the database, so it holds across restarts and gateways on one database
   * share it. Rejects when the database cannot be reached: refuse the delivery then.
   */
  claim(key: string, untilMs: number): Promise<boolean>;
  /** Where the adapter got to in the network's stream, kept in the database across restarts. */
  readonly cursor: ChannelCursor;
  readonly logger: Logger;
}

/**
 * A channel's position in its network's stream, for networks that replay recent history on
 * connect (Matrix's initial sync): what came after it arrived while no gateway was connected.
 * Kept in the database, so it survives a restart and is shared by gateways on one database.
 */
export interface ChannelCursor {
  /** The position last written, if any (an opaque string to Hearth). */
  read(): Promise<string | undefined>;
  /** Records the position; a failed write is logged by the service, never thrown. */
  write(position: string): Promise<void>;
}

/** An HTTP request to `/api/v1/channels/webhook/{name}`, before anything parsed its body. */
export interface WebhookRequest {
  method: 'GET' | 'POST';
  headers: IncomingHttpHeaders;
  query: Readonly<Record<string, unknown>>;
  /** The body exactly as received: signatures are computed over these bytes. */
  rawBody: Buffer;
}

/** What the webhook route answers: JSON, or plain text (a verification challenge). */
export type WebhookAnswer = { json: Record<string, unknown> } | { text: string };

export interface ChannelAdapter {
  readonly type: ChannelType;
  /** Longest text one message may carry on this network (longer replies are split). */
  readonly maxTextLength: number;
  /**
   * Only one connection may exist at a time (long polling): among gateways sharing Redis, the
   * one holding the channel's lease connects, the others stand by.
   */
  readonly exclusive?: boolean;
  /** Connects; resolves once the network answered. Rejects when it cannot connect. */
  connect(link: ChannelLink): Promise<void>;
  /** Graceful: stops taking new messages, lets what is in flight finish, then closes. */
  disconnect(): Promise<void>;
  /**
   * Aborts a `connect` in progress, which then rejects soon: a disable does not wait for a far
   * end that does not answer.
   */
  abortConnect?(): void;
  /** Sends one message of at most `maxTextLength` characters. */
  sendText(chatId: string, text: string): Promise<void>;
  /** Shows "typing…" in the chat, where the network has such an indicator. */
  typing?(chatId: string): Promise<void>;
  /**
   * Networks that push messages over HTTP: verifies the request (before parsing anything),
   * then hands its messages to the link. Throws a `HearthError` (401, 400, 413) to refuse it.
   */
  webhook?(request: WebhookRequest): Promise<WebhookAnswer>;
}

/**
 * A DNS TXT lookup, shaped as node's `dns.promises.resolveTxt`: each record as its strings.
 * Rejects with the resolver's error code (`ENOTFOUND`, `ENODATA` when there is no record).
 */
export type TxtResolver = (name: string) => Promise<string[][]>;

/** The I/O an adapter may use, passed in (never imported in the middle of adapter code). */
export interface AdapterIo {
  fetch: typeof globalThis.fetch;
  /** Epoch milliseconds. */
  now: () => number;
  logger: Logger;
  /** Counts a far end's input refused over a cap (`extension_input_refused_total{limit}`). */
  refused?: (limit: string) => void;
}
