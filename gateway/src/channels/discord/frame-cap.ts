/**
 * The largest frame the Discord gateway WebSocket takes. discord.js has no option for it: each
 * shard of @discordjs/ws (1.2) opens its socket with `new WebSocket(url, [], { handshakeTimeout })`
 * of the `ws` package, whose default `maxPayload` is 100 MiB, and nothing of discord.js passes
 * other options or another constructor. What discord.js does let us choose is the sharding
 * strategy (`ws.buildStrategy`): this one is its default, `SimpleShardingStrategy`, that lowers
 * the `maxPayload` of every socket its shards open as the socket opens (its `open` event, emitted
 * once the handshake is done and before a frame is read). Over the cap `ws` closes the
 * connection (1009) with the error code `WS_ERR_UNSUPPORTED_MESSAGE_LENGTH` — counted by the
 * adapter — and discord.js reconnects. The cap holds for one frame, a fragmented message and an
 * inflated one alike (`ws` checks all three against it).
 *
 * It reaches fields those libraries do not publish: the shard's `connection` (a class field of
 * @discordjs/ws's `WebSocketShard`) and the `_maxPayload` of a `ws` socket's frame reader
 * (`_receiver`). Should either change shape, the socket is closed and `unavailable` told why: the
 * channel does not run without the cap.
 */
import { SimpleShardingStrategy, type IShardingStrategy, type WebSocketOptions } from 'discord.js';

/** @discordjs/ws's manager, which discord.js's `WebSocketManager` (its own, older) shadows. */
type ShardManager = Parameters<NonNullable<WebSocketOptions['buildStrategy']>>[0];

/** The `ws` error code of a frame over `maxPayload`. */
export const FRAME_TOO_LARGE = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

export interface FrameCap {
  maxBytes: number;
  /** The cap could not be installed (the libraries changed): the connection is not made. */
  unavailable: (reason: string) => void;
}

/** What this reaches of a `ws` socket (8.x). */
interface WsSocket {
  once(event: 'open', listener: () => void): unknown;
  terminate(): void;
  _receiver?: { _maxPayload?: unknown };
}

const isWsSocket = (socket: unknown): socket is WsSocket =>
  typeof socket === 'object' &&
  socket !== null &&
  typeof (socket as Partial<WsSocket>).once === 'function' &&
  typeof (socket as Partial<WsSocket>).terminate === 'function';

const UNSET = 'the Discord gateway frame cap cannot be set';

/** Lowers the cap of `socket` as it opens; false when it is not a socket this knows. */
function lowerOnOpen(socket: unknown, cap: FrameCap): boolean {
  if (!isWsSocket(socket)) return false;
  socket.once('open', () => {
    const receiver = socket._receiver;
    if (receiver && typeof receiver._maxPayload === 'number') {
      receiver._maxPayload = cap.maxBytes;
      return;
    }
    socket.terminate();
    cap.unavailable(`${UNSET}: the ws package changed its frame reader`);
  });
  return true;
}

/** Every socket `shard` opens from now on gets the cap (its `connection` is watched). */
function watch(shard: object, cap: FrameCap): void {
  const field = Object.getOwnPropertyDescriptor(shard, 'connection');
  if (!field || !('value' in field)) {
    cap.unavailable(`${UNSET}: discord.js changed its shards`);
    return;
  }
  let current: unknown = field.value;
  Object.defineProperty(shard, 'connection', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set(next: unknown) {
      current = next;
      if (next === null || lowerOnOpen(next, cap)) return;
      (next as { close?: () => void }).close?.();
      cap.unavailable(`${UNSET}: the WebSocket is not the ws package's`);
    },
  });
}

/** discord.js's default sharding strategy, with every shard's frames capped. */
class FrameCappedStrategy extends SimpleShardingStrategy {
  readonly #cap: FrameCap;

  constructor(manager: ShardManager, cap: FrameCap) {
    super(manager);
    this.#cap = cap;
  }

  override async spawn(shardIds: number[]): Promise<void> {
    await super.spawn(shardIds);
    const { shards } = this as unknown as { shards?: Map<number, object> };
    if (!(shards instanceof Map)) {
      this.#cap.unavailable(`${UNSET}: no shards to watch`);
      return;
    }
    for (const shard of shards.values()) watch(shard, this.#cap);
  }
}

/** `ws.buildStrategy` of discord.js's client options. */
export function frameCappedStrategy(cap: FrameCap) {
  return (manager: ShardManager): IShardingStrategy => new FrameCappedStrategy(manager, cap);
}
