import type { Logger } from 'pino';
import { createInProcessApprovalBoard } from '../approvals/board/in-process.ts';
import type { PendingApprovalBoard } from '../approvals/board/ports.ts';
import { createLocalSessionEvents } from '../events/local.ts';
import type { LocalSessionSockets, SessionEvents } from '../events/ports.ts';
import type { RedisPool } from '../redis/pool.ts';
import type { ConnectionLease, LeaseTiming } from './connection-lease.ts';
import type { MessageClaim } from './message-claim.ts';
import type { PresenceTiming } from './presence.ts';

/** What gateways behind one reverse proxy share besides the databases (DESIGN "Scale-out"). */
export interface ScaleOut {
  /** Pending approvals, listed and claimed by every gateway. */
  board: PendingApprovalBoard;
  /** Frames for a session's sockets on whichever gateway they are connected. */
  events: SessionEvents;
  /**
   * A lease for a connection only one gateway may hold (`key` names it); undefined for a single
   * gateway, which holds everything.
   */
  lease(key: string): ConnectionLease | undefined;
  /** Claims a message id once among the gateways; undefined for a single gateway. */
  claim: MessageClaim | undefined;
  /** Which adapter each part uses right now (for /status). */
  backends(): { approvals: string; events: string };
  close(): Promise<void>;
}

export interface BuildScaleOutDeps {
  /** `[memory] cache_url`: empty for a single gateway (everything in process). */
  cacheUrl: string;
  /** The gateway's Redis connections, one link per URL. */
  redis: RedisPool;
  sockets: LocalSessionSockets;
  /** This gateway's id among its peers (a random UUID per process). */
  gatewayId: string;
  logger: Logger;
  now: () => number;
  /** How long this gateway's presence key lives and how often it is refreshed (presence.ts). */
  presence?: PresenceTiming;
  /** How long a connection lease outlives a holder that stopped renewing it. */
  leaseTiming?: LeaseTiming;
}

/**
 * In process without `cache_url`; otherwise Redis, with the in-process parts taking over while
 * it is unreachable. The Redis client is imported only when configured (like the short-term
 * tier, memory/build-memory.ts), so a single gateway never loads it.
 */
export async function buildScaleOut(deps: BuildScaleOutDeps): Promise<ScaleOut> {
  const logger = deps.logger.child({ area: 'scale-out' });
  const inProcess = createInProcessApprovalBoard({ owner: deps.gatewayId, now: deps.now });
  if (deps.cacheUrl === '') {
    const events = createLocalSessionEvents(deps.sockets);
    return {
      board: inProcess,
      events,
      lease: () => undefined,
      claim: undefined,
      backends: () => ({ approvals: inProcess.kind, events: events.kind }),
      close: () => inProcess.close(),
    };
  }

  const [
    { createGatewayPresence },
    { createRedisApprovalBoard },
    { createResilientApprovalBoard },
  ] = await Promise.all([
    import('./presence.ts'),
    import('../approvals/board/redis.ts'),
    import('../approvals/board/resilient.ts'),
  ]);
  const { createRedisSessionEvents } = await import('../events/redis.ts');
  const link = await deps.redis.open(deps.cacheUrl);
  const presence = await createGatewayPresence({
    link,
    gatewayId: deps.gatewayId,
    logger,
    ...deps.presence,
  });
  const board = await createResilientApprovalBoard({
    primary: await createRedisApprovalBoard({
      link,
      owner: deps.gatewayId,
      presence,
      logger,
      now: deps.now,
    }),
    fallback: inProcess,
    logger,
    now: deps.now,
  });
  const events = createRedisSessionEvents({
    link,
    sockets: deps.sockets,
    gatewayId: deps.gatewayId,
    logger,
  });
  const [{ createRedisConnectionLease }, { createRedisMessageClaim }] = await Promise.all([
    import('./connection-lease.ts'),
    import('./message-claim.ts'),
  ]);
  return {
    board,
    events,
    lease: (key) =>
      createRedisConnectionLease({
        link,
        key: `hearth:lease:${key}`,
        gatewayId: deps.gatewayId,
        timing: deps.leaseTiming,
        logger,
        now: deps.now,
      }),
    claim: createRedisMessageClaim({ link, gatewayId: deps.gatewayId, logger }),
    backends: () => ({ approvals: board.kind, events: events.kind }),
    async close() {
      await events.close();
      await board.close();
      await presence.close();
      await link.close();
    },
  };
}
