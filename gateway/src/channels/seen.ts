/**
 * What a channel has already taken — a delivery's signature, a message or update id — kept in the
 * channels store (`channel_seen`), so a repeated delivery is dropped after a restart too, and by
 * every gateway on one database: inserting the key is the claim, and of gateways racing for one
 * exactly one gets it. Claims expire (each kind with its network's replay window) and are pruned.
 */
import { createHash } from 'node:crypto';
import type { ChannelRepository } from '../db/ports.ts';

/** Keys longer than this are stored as their SHA-256 (a network's id may be long). */
const STORED_KEY_MAX = 200;

/** How long a message id is remembered to drop a network's repeated delivery of it. */
export const MESSAGE_ID_WINDOW_MS = 600_000;

/** How often expired claims are deleted. */
export const PRUNE_EVERY_MS = 60_000;

/** The key as stored: as written when short, else `sha256:<hex>` of it. */
export const storedKey = (key: string): string =>
  key.length <= STORED_KEY_MAX ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;

/**
 * Claims `key` for `channel` until `untilMs` (epoch ms): true the first time, false while an
 * earlier claim holds. Rejects when the store cannot be reached.
 */
export function claimOnce(
  store: ChannelRepository,
  channel: string,
  key: string,
  untilMs: number,
  now: number,
): Promise<boolean> {
  return store.claimSeen(channel, storedKey(key), Math.max(untilMs, now), now);
}
