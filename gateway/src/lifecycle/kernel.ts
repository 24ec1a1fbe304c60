import type { Logger } from 'pino';
import type { HearthConfig } from '../config/schema.ts';
import { configuredSecrets } from '../config/secret-walk.ts';
import { sanitiseEnv } from '../config/sanitise-env.ts';
import type { StatePaths } from '../config/state-dir.ts';
import { unavailable } from '../errors.ts';
import { createHostStats } from '../observability/host-stats.ts';
import { createMetrics, type Metrics } from '../observability/metrics.ts';
import { createRedisPool, type RedisPool } from '../redis/pool.ts';
import type { FrameSenderLimits } from '../ws/send.ts';
import { createStartup, type Startup } from './startup.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * What every area may use and no area owns: the configuration, the state directory's paths, the
 * logger, the clocks, outbound fetch, the metrics registry, the process environment (for child
 * processes, sanitised) and this gateway's own URL once it listens. Built first by
 * `createGateway`; each area takes it with the faces of the areas it names.
 */
export interface Kernel {
  readonly config: HearthConfig;
  readonly paths: StatePaths;
  readonly logger: Logger;
  /** Wall clock, epoch milliseconds. */
  readonly now: () => number;
  /** Monotonic milliseconds. */
  readonly monotonicNow: () => number;
  readonly fetch: typeof globalThis.fetch;
  readonly metrics: Metrics;
  /** The process environment as given (children get `childEnv()`, never this). */
  readonly processEnv: Env;
  /** Every configured secret value, resolved: no child process sees one, by name or value. */
  readonly secretValues: () => string[];
  /** An environment for a child process: sanitised, no provider key or configured secret. */
  readonly childEnv: (source?: Env) => Record<string, string>;
  /** This gateway's URL for a local client (a wildcard bind is reached on loopback). */
  readonly localUrl: () => string;
  /** Sockets' back-pressure limits (`ws/send.ts` defaults; tests lower them). */
  readonly frameLimits: Partial<FrameSenderLimits> | undefined;
  /** Redis connections, one link per URL, shared by every part that uses that URL. */
  readonly redis: RedisPool;
  /** The start-up phases' progress (`init_phase`, `/ready`). */
  readonly startup: Startup;
  /** Milliseconds since the gateway was built (monotonic). */
  readonly uptimeMs: () => number;
}

export interface KernelParts {
  config: HearthConfig;
  paths: StatePaths;
  logger: Logger;
  now: () => number;
  monotonicNow: () => number;
  fetch: typeof globalThis.fetch;
  processEnv: Env;
  frameLimits?: Partial<FrameSenderLimits>;
  /** The bound address, once listening (null before). */
  address: () => { address: string; family: string; port: number } | null;
}

export function createKernel(parts: KernelParts): Kernel {
  const secretValues = () => configuredSecrets(parts.config);
  const startedAt = parts.monotonicNow();
  return {
    config: parts.config,
    paths: parts.paths,
    logger: parts.logger,
    now: parts.now,
    monotonicNow: parts.monotonicNow,
    fetch: parts.fetch,
    metrics: createMetrics(createHostStats(parts.paths.home)),
    processEnv: parts.processEnv,
    secretValues,
    frameLimits: parts.frameLimits,
    startup: createStartup(parts.logger),
    redis: createRedisPool({
      logger: parts.logger,
      password: parts.config.memory.cache_password_secret,
    }),
    uptimeMs: () => parts.monotonicNow() - startedAt,
    childEnv: (source = parts.processEnv) => sanitiseEnv(source, secretValues()),
    localUrl() {
      const address = parts.address();
      if (address === null) throw unavailable('Not listening yet');
      const wildcard = address.address === '0.0.0.0' || address.address === '::';
      const host = wildcard
        ? '127.0.0.1'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
      return `http://${host}:${address.port}`;
    },
  };
}
