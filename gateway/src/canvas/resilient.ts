/**
 * The canvas a gateway with `[memory] cache_url` uses: the Redis canvas while Redis answers,
 * an in-process copy while it does not (like the approval board, approvals/board/resilient.ts).
 *
 * The copy (the mirror) follows the Redis canvas — seeded from it, then every add and clear its
 * events carry — and this gateway's viewers are told from the mirror. When a Redis call fails
 * because Redis is unreachable (or the link is down), the canvas switches to the mirror with one
 * warning: viewers keep what they had, renders and clears go on in process and `kind` reads
 * `in-process (redis unreachable)`. Redis is probed every `probeIntervalMs`; once it answers,
 * what happened here during the outage is replayed onto it in order (a clear, then the blocks
 * added after the last clear; a block the shared caps refuse is dropped with a warning), the
 * mirror is set to the Redis canvas (viewers get a `clear` and the blocks when it differs: other
 * gateways may have rendered meanwhile) and Redis is used again (one info log). A gateway that
 * made no call during an outage resyncs its mirror when Redis' pub/sub connection comes back.
 */
import { isHearthError } from '../errors.ts';
import type { Logger } from '../observability/logger.ts';
import { createFailover } from '../lifecycle/failover.ts';
import { createInProcessCanvasStore } from './in-process.ts';
import type { CanvasBlock, CanvasEvent, CanvasLimits, CanvasStore } from './ports.ts';

export interface ResilientCanvasOptions {
  /** The Redis canvas. */
  primary: CanvasStore;
  /** Whether its connections are up right now (a call is not even tried when they are not). */
  ready: () => boolean;
  limits: CanvasLimits;
  logger: Logger;
  /** Runs `fn` each time Redis' pub/sub connection comes back (events may have been missed). */
  onReconnect?: (fn: () => void) => void;
  /** How often Redis is probed while degraded; default 5,000 ms. */
  probeIntervalMs?: number;
}

export type OutageOp = { type: 'add'; block: CanvasBlock } | { type: 'clear' };

const isOutage = (error: unknown): boolean => isHearthError(error) && error.code === 'unavailable';
const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** A clear, if any, then the blocks added after the last one. */
function compact(ops: readonly OutageOp[]): OutageOp[] {
  const lastClear = ops.map((op) => op.type).lastIndexOf('clear');
  return lastClear < 0 ? [...ops] : [{ type: 'clear' }, ...ops.slice(lastClear + 1)];
}

/**
 * The outage journal with one more operation. A clear supersedes everything before it (the
 * replay would drop it anyway), so the journal holds at most a clear and the blocks the mirror
 * took after it, whatever `max_blocks` allows, however long the outage lasts.
 */
export function journalWith(journal: OutageOp[], op: OutageOp): OutageOp[] {
  if (op.type === 'clear') return [op];
  journal.push(op);
  return journal;
}

export async function createResilientCanvasStore(
  options: ResilientCanvasOptions,
): Promise<CanvasStore> {
  const { primary, logger } = options;
  const mirror = createInProcessCanvasStore(options.limits);
  /** Ids on the mirror, so an add Redis echoes back is not shown twice. */
  const mirrored = new Set<string>();
  let journal: OutageOp[] = [];
  /** Clears replayed onto Redis whose echo the mirror has already applied. */
  let clearEchoes = 0;
  /** Mirror updates run one at a time, in the order they arrive. */
  let mirrorQueue: Promise<void> = Promise.resolve();

  const mirrorAdd = async (block: CanvasBlock): Promise<void> => {
    if (mirrored.has(block.id)) return;
    await mirror.add(block);
    mirrored.add(block.id);
  };
  const mirrorClear = async (): Promise<void> => {
    await mirror.clear();
    mirrored.clear();
  };
  /** Runs `step` after every earlier mirror update; its result (or refusal) is the caller's. */
  function serial<T>(step: () => Promise<T>): Promise<T> {
    const result = mirrorQueue.then(step);
    mirrorQueue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
  const inOrder = (step: () => Promise<void>): Promise<void> =>
    serial(step).catch((error: unknown) => {
      logger.debug({ err: message(error) }, 'canvas mirror skipped an event');
    });
  /** The mirror becomes exactly `blocks`, telling viewers only when that changes anything. */
  const resetMirror = (blocks: CanvasBlock[]) =>
    inOrder(async () => {
      const current = (await mirror.blocks()).map((b) => b.id).join();
      if (current === blocks.map((b) => b.id).join()) return;
      await mirrorClear();
      for (const block of blocks) await mirrorAdd(block);
    });

  primary.subscribe((event: CanvasEvent) => {
    if (event.type === 'clear' && clearEchoes > 0) {
      clearEchoes -= 1;
      return;
    }
    void inOrder(() => (event.type === 'add' ? mirrorAdd(event.block) : mirrorClear()));
  });

  /** Replays the outage's renders and clears onto Redis; an outage keeps what was not sent. */
  async function replay(): Promise<void> {
    while (journal.length > 0) {
      const ops = compact(journal.splice(0));
      for (const [index, op] of ops.entries()) {
        try {
          if (op.type === 'clear') {
            clearEchoes += 1;
            await primary.clear().catch((error: unknown) => {
              clearEchoes -= 1;
              throw error;
            });
          } else await primary.add(op.block);
        } catch (error) {
          if (isOutage(error)) {
            journal = [...ops.slice(index), ...journal];
            throw error;
          }
          logger.warn(
            { err: message(error) },
            'a block rendered while redis was unreachable does not fit the shared canvas; dropped',
          );
        }
      }
    }
    await resetMirror(await primary.blocks());
  }

  const failover = createFailover({
    logger,
    probeIntervalMs: options.probeIntervalMs,
    isOutage,
    recover: async () => {
      if (!options.ready()) return false;
      await replay();
      return journal.length === 0;
    },
    log: {
      degraded: {
        msg: 'canvas store (redis) unreachable; the canvas is served in process until it answers again',
      },
      recovered: { msg: 'canvas store (redis) reachable again; outage renders replayed' },
      stillDown: 'canvas store (redis) still unreachable',
    },
  });

  /** On Redis while it works; on an outage, switches to the mirror and serves from it. */
  function route<T>(onPrimary: () => Promise<T>, onMirror: () => Promise<T>): Promise<T> {
    if (!options.ready()) failover.degrade('the redis link is down');
    return failover.route(onPrimary, onMirror);
  }

  // Back from a drop this gateway did not notice (no call failed): events may have been missed,
  // so the mirror (what viewers see) is set to the Redis canvas again.
  options.onReconnect?.(() => {
    if (!failover.usingPrimary || failover.closed) return;
    primary.blocks().then(resetMirror, (error: unknown) => failover.degrade(message(error)));
  });

  if (options.ready()) {
    try {
      await resetMirror(await primary.blocks());
    } catch (error) {
      failover.degrade(message(error));
    }
  } else failover.degrade('no connection at start');

  return {
    get kind() {
      return failover.usingPrimary && options.ready()
        ? primary.kind
        : `${mirror.kind} (redis unreachable)`;
    },
    blocks: () =>
      route(
        () => primary.blocks(),
        () => serial(() => mirror.blocks()),
      ),
    bytes: () =>
      route(
        () => primary.bytes(),
        () => serial(() => mirror.bytes()),
      ),
    add: (block) =>
      route(
        () => primary.add(block),
        () =>
          serial(async () => {
            await mirrorAdd(block);
            journal = journalWith(journal, { type: 'add', block });
          }),
      ),
    clear: () =>
      route(
        () => primary.clear(),
        () =>
          serial(async () => {
            await mirrorClear();
            journal = journalWith(journal, { type: 'clear' });
          }),
      ),
    subscribe: (listener) => mirror.subscribe(listener),
    async close() {
      if (failover.closed) return;
      failover.close();
      await Promise.all([primary.close(), mirror.close()]);
    },
  };
}
