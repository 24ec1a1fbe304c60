/**
 * Rules every short-term adapter applies the same way, so the conformance suite can hold them
 * to one behaviour.
 */
import { copyOrigin, defaultItemOrigin, normaliseOrigin, type MemoryOrigin } from '../origin.ts';
import type { ShortTermItem } from '../ports.ts';

/** Items kept per session; adding more drops the oldest. */
export const DEFAULT_MAX_ITEMS_PER_SESSION = 500;

/** Largest item content (UTF-8 bytes) a store takes; `[memory] short_term_max_item_bytes`. */
export const DEFAULT_MAX_ITEM_BYTES = 65_536;

/**
 * The in-process store's byte budget across all sessions (`[memory] short_term_max_bytes`):
 * over it, the least recently written sessions lose their oldest items.
 */
export const DEFAULT_MAX_STORE_BYTES = 33_554_432;

/** Why a store dropped or refused an item for its size (`short_term_items_dropped_total`). */
export type ShortTermDropReason = 'item_bytes' | 'store_bytes';

/** Told how many items a store refused (`item_bytes`) or evicted (`store_bytes`) for size. */
export type OnShortTermDropped = (reason: ShortTermDropReason, count: number) => void;

/** An item refused because its content is over the per-item byte cap; nothing was stored. */
export class ShortTermItemTooLarge extends RangeError {
  override readonly name = 'ShortTermItemTooLarge';
  readonly bytes: number;
  readonly maxBytes: number;
  constructor(bytes: number, maxBytes: number) {
    super(
      `short-term item content is ${bytes} bytes, over the ${maxBytes}-byte cap ([memory] short_term_max_item_bytes)`,
    );
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }
}

/** The UTF-8 size of an item's content. */
export function contentBytes(item: Pick<ShortTermItem, 'content'>): number {
  return Buffer.byteLength(item.content, 'utf8');
}

/** Refuses (and reports) an item whose content is over `maxItemBytes`. */
export function assertItemSize(
  item: Pick<ShortTermItem, 'content'>,
  maxItemBytes: number,
  onDropped?: OnShortTermDropped,
): void {
  const bytes = contentBytes(item);
  if (bytes <= maxItemBytes) return;
  onDropped?.('item_bytes', 1);
  throw new ShortTermItemTooLarge(bytes, maxItemBytes);
}

/** Rejects a TTL that is not a positive, finite number of seconds (fractions are allowed). */
export function assertTtl(ttlSeconds: number): void {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`short-term TTL must be a positive number of seconds, got ${ttlSeconds}`);
  }
}

/** A `limit` as a whole number of items, 0 for anything not positive. */
export function normaliseLimit(limit: number): number {
  if (Number.isNaN(limit) || limit <= 0) return 0;
  return limit === Infinity ? Number.MAX_SAFE_INTEGER : Math.floor(limit);
}

/**
 * Case-insensitive substring match (Unicode lower-casing on both sides). As with any
 * substring test, an empty keyword matches every item: callers that take a keyword from a
 * user must reject empty ones themselves.
 */
export function keywordMatcher(keyword: string): (content: string) => boolean {
  const lower = keyword.toLowerCase();
  return (content) => content.toLowerCase().includes(lower);
}

/**
 * An item's origin as stores keep and return it: the given one checked (a malformed origin is
 * refused with a TypeError), or for an item without one, the default of its role.
 */
export function itemOrigin(item: ShortTermItem): MemoryOrigin {
  return item.origin === undefined ? defaultItemOrigin(item.role) : normaliseOrigin(item.origin);
}

/** A defensive copy, so callers can never change what a store holds; it always has an origin. */
export function copyItem(item: ShortTermItem): ShortTermItem {
  return {
    id: item.id,
    sessionId: item.sessionId,
    role: item.role,
    content: item.content,
    contentHash: item.contentHash,
    createdAt: item.createdAt,
    origin: itemOrigin(item),
  };
}

/**
 * A copy of an item the store holds (made by `copyItem` when it was added, so its origin is
 * already checked): reading it back does not validate the origin again.
 */
export function copyStoredItem(item: ShortTermItem): ShortTermItem {
  return {
    id: item.id,
    sessionId: item.sessionId,
    role: item.role,
    content: item.content,
    contentHash: item.contentHash,
    createdAt: item.createdAt,
    origin: item.origin === undefined ? defaultItemOrigin(item.role) : copyOrigin(item.origin),
  };
}
