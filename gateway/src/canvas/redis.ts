/**
 * The canvas shared by every gateway of one `[memory] cache_url`: the blocks in a Redis list
 * (`<prefix>blocks`, oldest first) with their total size beside it (`<prefix>bytes`), and every
 * add and clear published on `<prefix>events`, which each gateway follows to tell its own
 * viewers. The cap check, the append and the publish run in one Lua script, so concurrent
 * renders on several gateways never pass the caps and every viewer sees adds in list order.
 * While Redis is unreachable its calls fail with 503 and `kind` says `redis (unreachable)`; the
 * gateway wraps it in the in-process fallback (resilient.ts), so no caller sees that 503.
 *
 * Redis is not trusted: every list entry is signed with the cluster secret for the list's key
 * and every event sealed for the channel (scale-out's bus seal), so a block or a clear written
 * by anything else that reaches Redis, an entry copied from another canvas and an event
 * replayed are dropped (logged, and counted in /status `scale_out_rejected`): no viewer sees
 * them and no listing includes them. The size counter beside the list is not signed: whoever
 * can write to Redis can fill the caps or delete the canvas with or without a signature.
 */
import { unavailable } from '../errors.ts';
import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../redis/link.ts';
import type { BusSeal } from '../scale-out/ports.ts';
import { blockBytes, canvasFull } from './blocks.ts';
import type { CanvasBlock, CanvasEvent, CanvasLimits, CanvasStore } from './ports.ts';

/**
 * KEYS: blocks, bytes. ARGV: signed block, its size, max blocks, max bytes, channel, sealed
 * event.
 */
const ADD = `
if redis.call('LLEN', KEYS[1]) + 1 > tonumber(ARGV[3]) then return 'blocks' end
if tonumber(redis.call('GET', KEYS[2]) or '0') + tonumber(ARGV[2]) > tonumber(ARGV[4]) then
  return 'bytes'
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('INCRBY', KEYS[2], ARGV[2])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 'ok'
`;

/** KEYS: blocks, bytes. ARGV: channel, sealed event. */
const CLEAR = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 'ok'
`;

export interface RedisCanvasStoreOptions {
  link: RedisLink;
  limits: CanvasLimits;
  logger: Logger;
  /** Signs the entries and seals the events for the gateways holding the cluster secret. */
  seal: BusSeal;
  /** Prefix of every key and channel; default `hearth:canvas:`. */
  keyPrefix?: string;
}

function parseEvent(message: string): CanvasEvent | undefined {
  try {
    const event = JSON.parse(message) as Partial<CanvasEvent> & { block?: Partial<CanvasBlock> };
    if (event.type === 'clear') return { type: 'clear' };
    if (event.type === 'add' && typeof event.block?.id === 'string') {
      return { type: 'add', block: event.block };
    }
  } catch {
    // not ours
  }
  return undefined;
}

export async function createRedisCanvasStore(
  options: RedisCanvasStoreOptions,
): Promise<CanvasStore> {
  const { link, limits, seal } = options;
  const prefix = options.keyPrefix ?? 'hearth:canvas:';
  const keys = [`${prefix}blocks`, `${prefix}bytes`];
  const channel = `${prefix}events`;
  const listeners = new Set<(event: CanvasEvent) => void>();
  const onMessage = (message: string) => {
    const opened = seal.open(channel, message);
    const event = opened === undefined ? undefined : parseEvent(opened);
    if (!event) return;
    for (const listener of listeners) listener(event);
  };
  const follow = () =>
    link.subscriber.subscribe(channel, onMessage).catch((error: unknown) => {
      options.logger.debug({ err: String(error) }, 'canvas events not followed yet');
    });
  link.onSubscriberReady(() => void follow());
  if (link.subscriber.isReady) await follow();

  async function run<T>(what: string, command: () => Promise<T>): Promise<T> {
    if (!link.ready()) throw unavailable('The canvas store (Redis) is unreachable');
    try {
      return await command();
    } catch (error) {
      throw unavailable(`The canvas store (Redis) failed to ${what}`, error);
    }
  }

  return {
    get kind() {
      return link.ready() ? 'redis' : 'redis (unreachable)';
    },
    async blocks() {
      const items = await run('list', () => link.client.lRange(keys[0]!, 0, -1));
      const blocks: CanvasBlock[] = [];
      const ids = new Set<string>();
      for (const item of items) {
        const json = seal.verify(keys[0]!, item);
        if (json === undefined) continue;
        const block = JSON.parse(json) as CanvasBlock;
        // A signed entry pushed again (the same list, once more) is shown once.
        if (ids.has(block.id)) continue;
        ids.add(block.id);
        blocks.push(block);
      }
      return blocks;
    },
    async bytes() {
      return Number((await run('count', () => link.client.get(keys[1]!))) ?? 0);
    },
    async add(block) {
      const outcome = await run('add', () =>
        link.client.eval(ADD, {
          keys,
          arguments: [
            seal.sign(keys[0]!, JSON.stringify(block)),
            String(blockBytes(block)),
            String(limits.maxBlocks),
            String(limits.maxCanvasBytes),
            channel,
            seal.seal(channel, JSON.stringify({ type: 'add', block })),
          ],
        }),
      );
      if (outcome === 'blocks' || outcome === 'bytes') throw canvasFull(limits, outcome);
    },
    async clear() {
      await run('clear', () =>
        link.client.eval(CLEAR, {
          keys,
          arguments: [channel, seal.seal(channel, JSON.stringify({ type: 'clear' }))],
        }),
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      await link.subscriber.unsubscribe(channel, onMessage).catch(() => undefined);
      await link.close();
    },
  };
}
