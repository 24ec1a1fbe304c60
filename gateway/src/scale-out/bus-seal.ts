/**
 * What gateways sharing `[memory] cache_url` put on the shared bus (pub/sub messages) and on
 * the shared boards (Redis keys whose content decides something) is authenticated with a key
 * only the gateways hold, `[gateway] cluster_secret`: anyone else who reaches Redis (a skill, a
 * container on the same network) can read and delete, but not forge.
 *
 * - `seal`/`open`: a bus message, `{v, t, n, p, m}` with an HMAC-SHA256 (`m`) over the topic
 *   (the channel it travels on), its time `t`, a random nonce `n` and the payload `p`. `open`
 *   accepts it once: a message older or newer than the window, or whose nonce was already seen
 *   within it, is a replay and dropped.
 * - `sign`/`verify`: stored state (a board entry, a recorded decision), `{p, m}` with an
 *   HMAC-SHA256 over the topic (the key it is stored under) and the payload. Stored state is
 *   read many times, so it has no nonce; binding it to its key stops it being copied to
 *   another one.
 *
 * Whatever fails is dropped, counted by reason (`rejected()`, in /status) and logged.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../observability/logger.ts';

/** Why a message or stored value was not accepted. */
export type RejectReason = 'unreadable' | 'bad_mac' | 'stale' | 'replayed';

export interface BusSeal {
  /** `payload` as a message for `topic` (the channel), authenticated and fresh. */
  seal(topic: string, payload: string): string;
  /** The payload of a genuine, fresh, first-seen message for `topic`; else undefined. */
  open(topic: string, message: string): string | undefined;
  /** `payload` as a value stored under `topic` (the key), authenticated. */
  sign(topic: string, payload: string): string;
  /** The payload of a genuine value stored under `topic`; else undefined. */
  verify(topic: string, stored: unknown): string | undefined;
  /** How many messages and values were dropped, by reason. */
  rejected(): Record<RejectReason, number>;
}

export interface BusSealOptions {
  /** The key material (see `busKey`). */
  key: Buffer;
  logger: Logger;
  /** Epoch milliseconds. */
  now?: () => number;
  /** How far a message's time may be from ours (transit and clock skew); default 30,000 ms. */
  windowMs?: number;
}

/** The MAC key of the bus, derived from `[gateway] cluster_secret` (HKDF-SHA256). */
export function busKey(clusterSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', clusterSecret, 'hearth', 'scale-out bus v1', 32));
}

/** A cluster secret shorter than this is refused: it would be guessable offline from a MAC. */
export const MIN_CLUSTER_SECRET_LENGTH = 32;

const messageSchema = z.strictObject({
  v: z.literal(1),
  t: z.number().int().nonnegative(),
  n: z.string().regex(/^[\w-]{22}$/),
  p: z.string(),
  m: z.string().regex(/^[\w-]{43}$/),
});
const storedSchema = z.strictObject({ p: z.string(), m: z.string().regex(/^[\w-]{43}$/) });

function parse<T>(schema: z.ZodType<T>, text: unknown): T | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function createBusSeal(options: BusSealOptions): BusSeal {
  const { key, logger } = options;
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? 30_000;
  /** Nonces accepted within the window, with their message time. */
  const seen = new Map<string, number>();
  const counts: Record<RejectReason, number> = { unreadable: 0, bad_mac: 0, stale: 0, replayed: 0 };

  const mac = (...parts: string[]): string =>
    createHmac('sha256', key).update(parts.join('\n')).digest('base64url');

  /** Constant-time comparison of two base64url MACs of the same length. */
  const same = (given: string, expected: string): boolean => {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  function reject(reason: RejectReason, topic: string, what: string): undefined {
    counts[reason] += 1;
    logger.warn({ topic, reason }, `dropped a ${what} on the shared bus: ${reason}`);
    return undefined;
  }

  /**
   * Drops the nonces that have left the window, oldest first (the map keeps arrival order,
   * close to time order), so a busy bus costs what expires, not a scan of the whole map. One
   * kept a little longer behind a younger one only costs memory.
   */
  function forget(at: number): void {
    for (const [nonce, time] of seen) {
      if (at - time <= windowMs) break;
      seen.delete(nonce);
    }
  }

  return {
    seal(topic, payload) {
      const t = now();
      const n = randomBytes(16).toString('base64url');
      return JSON.stringify({
        v: 1,
        t,
        n,
        p: payload,
        m: mac('msg', topic, String(t), n, payload),
      });
    },

    open(topic, message) {
      const parsed = parse(messageSchema, message);
      if (!parsed) return reject('unreadable', topic, 'message');
      if (!same(parsed.m, mac('msg', topic, String(parsed.t), parsed.n, parsed.p)))
        return reject('bad_mac', topic, 'message');
      const at = now();
      forget(at);
      if (Math.abs(at - parsed.t) > windowMs) return reject('stale', topic, 'message');
      if (seen.has(parsed.n)) return reject('replayed', topic, 'message');
      seen.set(parsed.n, parsed.t);
      return parsed.p;
    },

    sign(topic, payload) {
      return JSON.stringify({ p: payload, m: mac('state', topic, payload) });
    },

    verify(topic, stored) {
      if (stored === null || stored === undefined) return undefined;
      const parsed = parse(storedSchema, stored);
      if (!parsed) return reject('unreadable', topic, 'stored value');
      if (!same(parsed.m, mac('state', topic, parsed.p)))
        return reject('bad_mac', topic, 'stored value');
      return parsed.p;
    },

    rejected: () => ({ ...counts }),
  };
}
