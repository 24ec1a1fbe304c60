import type { Logger } from 'pino';
import type { ChannelAdapter, ChannelLink } from './ports.ts';

/** `standby`: another gateway sharing Redis holds this channel's connection. */
export type ChannelStatus = 'connected' | 'connecting' | 'disconnected' | 'disabled' | 'standby';

export interface Backoff {
  /** First retry delay; doubles per failed attempt up to `maxMs` (with jitter). */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 60_000 };

/** May this gateway hold the channel's connection (one holder among gateways sharing Redis)? */
export interface ConnectionLease {
  /** Resolves true once held; false when another gateway holds it (try again later). */
  acquire(): Promise<boolean>;
  /** Gives the lease up (disable, shutdown). */
  release(): Promise<void>;
  /** Called when the lease was lost (expired under us): the runner disconnects. */
  onLost(listener: () => void): void;
  /** How soon to try again while another gateway holds it. */
  readonly retryMs: number;
}

export interface ChannelRunnerDeps {
  name: string;
  enabled: boolean;
  createAdapter: () => Promise<ChannelAdapter>;
  /** The link the adapter talks back through; `lost`/`health` are wired to the runner here. */
  link: (events: Pick<ChannelLink, 'lost' | 'health'>) => ChannelLink;
  lease?: ConnectionLease;
  backoff: Backoff;
  /** Runs `fn` after `ms`; returns a cancel function. */
  schedule: (fn: () => void, ms: number) => () => void;
  /** [0, 1) for jitter. */
  random: () => number;
  logger: Logger;
}

/**
 * One channel's connection: connects when enabled, reconnects with exponential backoff after a
 * failure or a drop, disconnects gracefully when disabled. Never throws to its caller: a
 * channel's failure stays inside it (status and `lastError` show it).
 */
export function createChannelRunner(deps: ChannelRunnerDeps) {
  let enabled = deps.enabled;
  let status: ChannelStatus = enabled ? 'disconnected' : 'disabled';
  let adapter: ChannelAdapter | undefined;
  let attempt = 0;
  let cancelRetry: (() => void) | undefined;
  let connecting: Promise<void> | undefined;
  let lastError: string | undefined;
  /** Bumped on every disconnect: a connect that finishes after it is undone. */
  let generation = 0;
  const log = deps.logger.child({ channel: deps.name });

  const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

  const link = deps.link({
    lost(error) {
      if (!enabled || status === 'connecting') return;
      lastError = describe(error);
      log.warn({ err: lastError }, 'channel connection lost; reconnecting');
      status = 'disconnected';
      const gone = adapter;
      generation += 1;
      void gone?.disconnect().catch(() => undefined);
      scheduleRetry();
    },
    health(up, reason) {
      if (!enabled || status === 'connecting' || status === 'disabled') return;
      if (!up && reason) lastError = reason;
      status = up ? 'connected' : 'disconnected';
    },
  });

  deps.lease?.onLost(() => {
    if (status !== 'connected') return;
    log.warn('channel lease lost; disconnecting');
    generation += 1;
    status = 'disconnected';
    void adapter?.disconnect().catch(() => undefined);
    scheduleRetry();
  });

  function scheduleRetry(): void {
    if (!enabled || cancelRetry) return;
    const delay = Math.min(deps.backoff.maxMs, deps.backoff.baseMs * 2 ** attempt);
    attempt += 1;
    const jittered = Math.round(delay * (0.5 + deps.random() / 2));
    cancelRetry = deps.schedule(() => {
      cancelRetry = undefined;
      void connect();
    }, jittered);
  }

  async function connectOnce(): Promise<void> {
    const mine = generation;
    status = 'connecting';
    try {
      adapter ??= await deps.createAdapter();
      const lease = adapter.exclusive ? deps.lease : undefined;
      if (lease && !(await lease.acquire())) {
        if (mine !== generation || !enabled) return;
        status = 'standby';
        lastError = undefined;
        cancelRetry = deps.schedule(() => {
          cancelRetry = undefined;
          void connect();
        }, lease.retryMs);
        return;
      }
      await adapter.connect(link);
      if (mine !== generation || !enabled) {
        await adapter.disconnect().catch(() => undefined);
        return;
      }
      status = 'connected';
      attempt = 0;
      lastError = undefined;
      log.info('channel connected');
    } catch (error) {
      if (mine !== generation || !enabled) return;
      status = 'disconnected';
      lastError = describe(error);
      log.warn({ err: lastError, attempt }, 'channel could not connect; retrying with backoff');
      scheduleRetry();
    }
  }

  function connect(): Promise<void> {
    connecting ??= connectOnce().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  async function disconnect(): Promise<void> {
    generation += 1;
    cancelRetry?.();
    cancelRetry = undefined;
    // A connect waiting on a far end that does not answer is cut short rather than waited out.
    if (connecting) adapter?.abortConnect?.();
    await connecting;
    await adapter
      ?.disconnect()
      .catch((error: unknown) =>
        log.warn({ err: describe(error) }, 'channel did not disconnect cleanly'),
      );
    await deps.lease?.release().catch(() => undefined);
  }

  return {
    name: deps.name,
    status: () => status,
    enabled: () => enabled,
    lastError: () => lastError,
    /** A failure of the channel outside its connection (a reply not delivered): shown as `last_error`. */
    failed(reason: string): void {
      lastError = reason;
    },
    /** The adapter once built (sending needs a connected one). */
    adapter: () => (status === 'connected' ? adapter : undefined),
    /** The built adapter whatever its state (webhooks arrive while it reconnects). */
    anyAdapter: () => adapter,
    start(): Promise<void> {
      return enabled ? connect() : Promise.resolve();
    },
    async enable(): Promise<void> {
      enabled = true;
      if (status === 'disabled') status = 'disconnected';
      if (status !== 'connected') await connect();
    },
    async disable(): Promise<void> {
      enabled = false;
      await disconnect();
      status = 'disabled';
      log.info('channel disabled');
    },
    async reconnect(): Promise<void> {
      await disconnect();
      enabled = true;
      attempt = 0;
      status = 'disconnected';
      void connect();
    },
    close: async () => {
      enabled = false;
      await disconnect();
      status = 'disabled';
    },
  };
}

export type ChannelRunner = ReturnType<typeof createChannelRunner>;
