import type { Logger } from 'pino';
import { redisUrlHasPassword, redisUrlWithPassword } from '../redis/url-password.ts';
import { busKey, createBusSeal, MIN_CLUSTER_SECRET_LENGTH } from './bus-seal.ts';
import { createLocalSessionEvents } from './events/local.ts';
import type { LocalSessionSockets } from './events/ports.ts';
import type { RedisPool } from '../redis/pool.ts';
import type { LeaseTiming, PresenceTiming, ScaleOut } from './ports.ts';

export type { ScaleOut };

export interface BuildScaleOutDeps {
  /** `[memory] cache_url`: empty for a single gateway (everything in process). */
  cacheUrl: string;
  /** `[gateway] cluster_secret`: what the gateways sharing `cacheUrl` trust one another by. */
  clusterSecret: string;
  /** `[memory] cache_password_secret`, for /status `backends.redis_password` only. */
  cachePassword?: string;
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

/** Why the gateways cannot trust one another, or undefined when the cluster secret will do. */
export function clusterSecretProblem(clusterSecret: string): string | undefined {
  const fix =
    `set [gateway] cluster_secret to the same random value on every gateway sharing it, ` +
    `e.g. cluster_secret = "ENV:HEARTH_CLUSTER_SECRET" with ` +
    `HEARTH_CLUSTER_SECRET=$(openssl rand -hex 32) in each gateway's environment`;
  if (clusterSecret === '')
    return `refused: [memory] cache_url is set but [gateway] cluster_secret is not, so nothing on Redis can be authenticated; ${fix}`;
  if (clusterSecret.length < MIN_CLUSTER_SECRET_LENGTH)
    return `refused: [gateway] cluster_secret is shorter than ${MIN_CLUSTER_SECRET_LENGTH} characters; ${fix}`;
  return undefined;
}

/**
 * In process without `cache_url`; otherwise Redis. The Redis client is imported only when
 * configured (like the short-term tier, memory/build-memory.ts), so a single gateway never
 * loads it.
 *
 * What decides something for a peer (session frames and clears, the approval board, message
 * claims, the canvas) is sealed or signed with the cluster secret (bus-seal.ts). Without a usable one,
 * those parts refuse to share: session events and the canvas stay in process, the approval
 * board is this gateway's own (`shared` is undefined), each gateway de-duplicates messages alone, and
 * /status `backends.scale_out` says why and how to set it. The connection lease keeps using
 * Redis unsigned: it only says which gateway holds a connection, and whoever can write to
 * Redis can stop a job (by deleting or holding keys) with or without a signature. Presence
 * keys likewise: a forged one keeps a dead gateway's approvals listed, but deciding them
 * reaches nobody; a deleted one hides a live gateway's approvals from its peers (a peer's claim
 * then drops them), which at worst leaves them to be decided where they wait or to expire
 * denied.
 */
export async function buildScaleOut(deps: BuildScaleOutDeps): Promise<ScaleOut> {
  const logger = deps.logger.child({ area: 'scale-out' });
  if (deps.cacheUrl === '') {
    const events = createLocalSessionEvents(deps.sockets);
    return {
      gatewayId: deps.gatewayId,
      shared: undefined,
      refused: undefined,
      events,
      lease: () => undefined,
      claim: undefined,
      backends: () => ({ events: events.kind }),
      close: () => events.close(),
    };
  }
  const refused = clusterSecretProblem(deps.clusterSecret);
  if (refused !== undefined) return buildRefused(deps, logger, refused);

  const seal = createBusSeal({ key: busKey(deps.clusterSecret), logger, now: deps.now });
  const [{ createGatewayPresence }, { createRedisSessionEvents }] = await Promise.all([
    import('./presence.ts'),
    import('./events/redis.ts'),
  ]);
  const link = await deps.redis.open(deps.cacheUrl);
  const presence = await createGatewayPresence({
    link,
    gatewayId: deps.gatewayId,
    logger,
    ...deps.presence,
  });
  const events = createRedisSessionEvents({
    link,
    sockets: deps.sockets,
    gatewayId: deps.gatewayId,
    seal,
    logger,
  });
  const [{ createRedisConnectionLease }, { createRedisMessageClaim }] = await Promise.all([
    import('./connection-lease.ts'),
    import('./message-claim.ts'),
  ]);
  return {
    gatewayId: deps.gatewayId,
    shared: { link, presence, seal },
    refused: undefined,
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
    claim: createRedisMessageClaim({ link, gatewayId: deps.gatewayId, logger, seal }),
    backends: () => ({
      events: events.kind,
      scale_out: 'redis (authenticated)',
      scale_out_rejected: describeRejected(seal.rejected()),
      redis_password: redisPassword(deps),
    }),
    async close() {
      await events.close();
      await presence.close();
      await link.close();
    },
  };
}

/**
 * Whether Redis is asked for a password: without one, anything that reaches it reads what is
 * cached there (conversation turns) and can delete what gateways share.
 */
function redisPassword(deps: BuildScaleOutDeps): string {
  return redisUrlHasPassword(redisUrlWithPassword(deps.cacheUrl, deps.cachePassword ?? ''))
    ? 'set'
    : 'none: anything that reaches this Redis reads the cached conversation turns; ' +
        'give it a password (requirepass) and set [memory] cache_password_secret';
}

/** `bad_mac=2 replayed=1` (only reasons seen), or `0`. */
function describeRejected(counts: Record<string, number>): string {
  const seen = Object.entries(counts).filter(([, count]) => count > 0);
  return seen.length === 0 ? '0' : seen.map(([reason, count]) => `${reason}=${count}`).join(' ');
}

/** `cache_url` without a usable cluster secret: connection leases only (see buildScaleOut). */
async function buildRefused(
  deps: BuildScaleOutDeps,
  logger: Logger,
  refused: string,
): Promise<ScaleOut> {
  logger.warn(
    { reason: refused },
    'scale-out refused: session events, pending approvals, message claims and the canvas stay on this gateway',
  );
  const events = createLocalSessionEvents(deps.sockets);
  const link = await deps.redis.open(deps.cacheUrl);
  const { createRedisConnectionLease } = await import('./connection-lease.ts');
  return {
    gatewayId: deps.gatewayId,
    shared: undefined,
    refused,
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
    // Unsigned claims could be forged to make a message look handled: each gateway
    // de-duplicates alone instead.
    claim: undefined,
    backends: () => ({
      events: events.kind,
      scale_out: refused,
      redis_password: redisPassword(deps),
    }),
    async close() {
      await events.close();
      await link.close();
    },
  };
}
