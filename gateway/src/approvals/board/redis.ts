/**
 * The approval board in Redis, shared by every gateway on the same `[memory] cache_url`. Key
 * layout and atomicity are in redis-scripts.ts. Verdicts travel on one pub/sub channel per
 * owning gateway (`<prefix>verdicts:<owner>`). Pub/sub delivers at most once: after the pub/sub
 * connection comes back, the resilient board restores what this gateway still owns and learns
 * the decisions it missed (`restore`), and the owner's expiry reads them too (`decisionOf`).
 *
 * An approval whose owner is no longer alive (its presence key lapsed: it crashed or lost Redis)
 * is not listed, and a claim of it finds nothing and removes it: nobody could carry it out. An
 * owner that was only cut off restores what it still holds when it is back.
 *
 * Calls reject while Redis is unreachable; the resilient board (resilient.ts) turns that into a
 * switch to the in-process board.
 *
 * Nothing on Redis is taken on its word: entries and recorded decisions are signed with the
 * cluster secret for the key they are stored under, verdict messages sealed for the owner's
 * channel (scale-out/bus-seal.ts), and what fails is treated as absent. A verdict message is
 * only a wake-up: the owner then reads the claim's recorded decision back from the board and
 * hands the waiting call that decision, or nothing when the board has none.
 */
import type { Logger } from '../../observability/logger.ts';
import type { BusSeal, PresenceKeys } from '../../scale-out/ports.ts';
import type { RedisLink } from '../../redis/link.ts';
import type { PendingApproval } from '../ports.ts';
import type { BoardDecision, ClaimedApproval, PendingApprovalBoard, Verdict } from './ports.ts';
import { CLAIM, OWNER_GONE, PUBLISH, RESTORE } from './redis-scripts.ts';
import { encodeEntry, oldestFirst, parseDecision, parseEntry, parseVerdict } from './wire.ts';

export interface RedisBoardOptions {
  link: RedisLink;
  /** This gateway's id: verdicts for what it publishes arrive on its own channel. */
  owner: string;
  /** Gateway liveness: entries of an owner whose key is gone are dropped. */
  presence: PresenceKeys;
  /** Signs and checks what gateways write for one another (the cluster secret). */
  seal: BusSeal;
  logger: Logger;
  /** Epoch milliseconds, the index's score. */
  now?: () => number;
  /** Prefix of every key and channel; default `hearth:ap:`. */
  keyPrefix?: string;
  /** How long a recorded decision outlives the entry's own TTL; default 60,000 ms. */
  decisionMarginMs?: number;
}

export interface RedisApprovalBoard extends PendingApprovalBoard {
  /**
   * Publishes an approval this gateway owns again (Redis lost it, or it was published while
   * Redis was unreachable) unless a claim already decided it; returns that decision.
   */
  restore(approval: PendingApproval, ttlMs: number): Promise<BoardDecision | undefined>;
  /**
   * Runs `fn` each time the pub/sub connection is back after a drop: verdicts may have been
   * missed, and a restarted Redis may have lost entries (the resilient board restores them).
   */
  onReconnect(fn: () => void): void;
}

/**
 * Resolves once the verdict channel is subscribed, or at once while Redis is unreachable (it is
 * subscribed when the pub/sub connection comes up).
 */
export async function createRedisApprovalBoard(
  options: RedisBoardOptions,
): Promise<RedisApprovalBoard> {
  const { link, owner, presence, seal, logger } = options;
  const { client, subscriber } = link;
  const now = options.now ?? Date.now;
  const prefix = options.keyPrefix ?? 'hearth:ap:';
  const margin = String(options.decisionMarginMs ?? 60_000);
  const index = `${prefix}pending`;
  const entryKey = (id: string) => `${prefix}e:${id}`;
  const decisionKey = (id: string) => `${prefix}v:${id}`;
  const channel = (gateway: string) => `${prefix}verdicts:${gateway}`;
  const ownPresence = presence.keyOf(owner);
  const presenceTtl = String(Math.ceil(presence.ttlMs));
  let handler: ((verdict: Verdict) => void) | undefined;
  const reconnectListeners: (() => void)[] = [];
  let closed = false;
  let readyBefore = false;

  /** The entry stored under `id`, when it is genuine (signed by a gateway for that key). */
  const readEntry = (id: string, stored: unknown): ClaimedApproval | undefined =>
    parseEntry(seal.verify(entryKey(id), stored));
  const readDecision = (id: string, stored: unknown): BoardDecision | undefined =>
    parseDecision(seal.verify(decisionKey(id), stored));
  const signEntry = (approval: PendingApproval): string =>
    seal.sign(entryKey(approval.id), encodeEntry(approval, owner));

  /** A verdict message is a hint: the decision acted on is the one the claim recorded. */
  async function wakeUp(verdict: Verdict): Promise<void> {
    const recorded = readDecision(verdict.id, await client.get(decisionKey(verdict.id)));
    if (recorded === undefined) {
      logger.warn(
        { id: verdict.id },
        'ignored an approval verdict: the board records no decision for it',
      );
      return;
    }
    handler?.({ ...verdict, decision: recorded });
  }

  const listener = (message: string): void => {
    const opened = seal.open(channel(owner), message);
    if (opened === undefined) return;
    const verdict = parseVerdict(opened);
    if (!verdict) return void logger.debug('skipped an unreadable approval verdict');
    wakeUp(verdict).catch((error: unknown) => {
      // Redis went away meanwhile: the expiry (or the reconciliation) reads the decision back.
      logger.debug({ id: verdict.id, err: String(error) }, 'approval verdict not read back yet');
    });
  };

  function subscribe(): Promise<void> {
    if (closed) return Promise.resolve();
    if (readyBefore) for (const fn of reconnectListeners) fn();
    readyBefore = true;
    // Subscribing twice with the same listener is a no-op; node-redis resubscribes on reconnect.
    return subscriber.subscribe(channel(owner), listener).catch((error: unknown) => {
      logger.debug({ err: String(error) }, 'approval verdict channel not subscribed yet');
    });
  }
  /** The owners among `owners` whose presence key is gone; this gateway is alive. */
  async function deadOwners(owners: string[]): Promise<Set<string>> {
    const others = [...new Set(owners)].filter((id) => id !== owner);
    if (others.length === 0) return new Set();
    const alive = await client.mGet(others.map((id) => presence.keyOf(id)));
    return new Set(others.filter((_, i) => alive[i] === null));
  }

  link.onSubscriberReady(() => void subscribe());
  if (subscriber.isReady) await subscribe();

  return {
    kind: 'redis',

    async publish(approval, ttlMs) {
      await client.eval(PUBLISH, {
        keys: [entryKey(approval.id), index, ownPresence],
        arguments: [
          approval.id,
          signEntry(approval),
          String(Math.ceil(ttlMs)),
          String(now()),
          presenceTtl,
        ],
      });
    },

    async list() {
      const ids = await client.zRange(index, 0, -1);
      if (ids.length === 0) return [];
      const values = await client.mGet(ids.map(entryKey));
      const entries: ClaimedApproval[] = [];
      const gone: string[] = [];
      ids.forEach((id, i) => {
        const entry = readEntry(id, values[i]);
        if (entry && entry.approval.id === id) entries.push(entry);
        else if (values[i] === null) gone.push(id);
      });
      if (gone.length > 0) await client.zRem(index, gone);
      const dead = await deadOwners(entries.map((entry) => entry.owner));
      return oldestFirst(
        entries.filter((entry) => !dead.has(entry.owner)).map((entry) => entry.approval),
      );
    },

    async claim(id, decision) {
      // An entry nobody signed (written by something that is not a gateway) is not claimable.
      const entry = readEntry(id, await client.get(entryKey(id)));
      if (!entry || entry.approval.id !== id) {
        await client.zRem(index, id);
        return undefined;
      }
      const result = await client.eval(CLAIM, {
        keys: [entryKey(id), index, decisionKey(id), presence.keyOf(entry.owner)],
        arguments: [id, seal.sign(decisionKey(id), decision), margin, entry.owner, owner],
      });
      if (result === OWNER_GONE) {
        logger.info({ id, owner: entry.owner }, 'dropped a pending approval: its gateway is gone');
        return undefined;
      }
      const claimed = readEntry(id, result);
      return claimed && claimed.approval.id === id ? claimed : undefined;
    },

    async decisionOf(id) {
      return readDecision(id, await client.get(decisionKey(id)));
    },

    async deliver(to, verdict) {
      const topic = channel(to);
      await client.publish(topic, seal.seal(topic, JSON.stringify(verdict)));
    },

    onVerdict(next) {
      handler = next;
    },

    onReconnect(fn) {
      reconnectListeners.push(fn);
    },

    async restore(approval, ttlMs) {
      const decided = await client.eval(RESTORE, {
        keys: [entryKey(approval.id), index, decisionKey(approval.id), ownPresence],
        arguments: [
          approval.id,
          signEntry(approval),
          String(Math.max(1, Math.ceil(ttlMs))),
          String(now()),
          presenceTtl,
        ],
      });
      return readDecision(approval.id, decided);
    },

    async ping() {
      if (closed || !link.ready()) return false;
      try {
        await client.ping();
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      if (subscriber.isReady)
        await subscriber.unsubscribe(channel(owner), listener).catch(() => {});
    },
  };
}
