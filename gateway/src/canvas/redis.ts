/**
 * The canvas shared by every gateway of one `[memory] cache_url`: the blocks in a Redis list
 * (`<prefix>blocks`, oldest first) with their total size beside it (`<prefix>bytes`), and every
 * add and clear published on `<prefix>events`, which each gateway follows to tell its own
 * viewers. The cap check, the append and the publish run in one Lua script, so concurrent
 * renders on several gateways never pass the caps and every viewer sees adds in list order.
 * While Redis is unreachable its calls fail with 503 and `kind` says `redis (unreachable)`; the
 * gateway wraps it in the in-process fallback (resilient.ts), so no caller sees that 503.
 */
import { unavailable } from '../errors.ts';
import type { Logger } from '../observability/logger.ts';
import type { RedisLink } from '../redis/link.ts';
import { blockBytes, canvasFull } from './blocks.ts';
import type { CanvasBlock, CanvasEvent, CanvasLimits, CanvasStore } from './ports.ts';

/** KEYS: blocks, bytes. ARGV: block JSON, its size, max blocks, max bytes, channel, event JSON. */
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

/** KEYS: blocks, bytes. ARGV: channel, event JSON. */
const CLEAR = `
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 'ok'
`;

export interface RedisCanvasStoreOptions {
  link: RedisLink;
  limits: CanvasLimits;
  logger: Logger;
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
  const { link, limits } = options;
  const prefix = options.keyPrefix ?? 'hearth:canvas:';
  const keys = [`${prefix}blocks`, `${prefix}bytes`];
  const channel = `${prefix}events`;
  const listeners = new Set<(event: CanvasEvent) => void>();
  const onMessage = (message: string) => {
    const event = parseEvent(message);
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
      return items.map((item) => JSON.parse(item) as CanvasBlock);
    },
    async bytes() {
      return Number((await run('count', () => link.client.get(keys[1]!))) ?? 0);
    },
    async add(block) {
      const json = JSON.stringify(block);
      const outcome = await run('add', () =>
        link.client.eval(ADD, {
          keys,
          arguments: [
            json,
            String(blockBytes(block)),
            String(limits.maxBlocks),
            String(limits.maxCanvasBytes),
            channel,
            JSON.stringify({ type: 'add', block }),
          ],
        }),
      );
      if (outcome === 'blocks' || outcome === 'bytes') throw canvasFull(limits, outcome);
    },
    async clear() {
      await run('clear', () =>
        link.client.eval(CLEAR, { keys, arguments: [channel, JSON.stringify({ type: 'clear' })] }),
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
