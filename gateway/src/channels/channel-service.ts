import type { Logger } from 'pino';
import type { ChannelConfig } from '../config/schema.ts';
import type { ChannelRepository, SettingsRepository } from '../db/ports.ts';
import { HearthError, notFound } from '../errors.ts';
import type { Metrics } from '../observability/metrics.ts';
import { channelLabel } from '../observability/labels.ts';
import {
  createChannelRunner,
  DEFAULT_BACKOFF,
  type Backoff,
  type ChannelRunner,
  type ConnectionLease,
} from './channel-runner.ts';
import { channelCaveat } from './caveats.ts';
import { createInbound, type ChannelContext, type RunTurn } from './inbound.ts';
import { inboundProblem, withinNameCap } from './inbound-caps.ts';
import { createPairings } from './pairing.ts';
import { claimOnce, PRUNE_EVERY_MS } from './seen.ts';
import type { ChannelAdapter, ChannelCursor, WebhookAnswer, WebhookRequest } from './ports.ts';
import { createTokenBuckets } from './token-bucket.ts';

export interface ChannelServiceDeps {
  channels: Readonly<Record<string, ChannelConfig>>;
  createAdapter: (name: string, config: ChannelConfig) => Promise<ChannelAdapter>;
  store: () => ChannelRepository;
  /** Where each channel's cursor is kept (the settings table), by key. */
  cursors?: () => CursorStore;
  runTurn: RunTurn;
  /** A connection lease per channel when several gateways share Redis; none: always held. */
  lease?: (name: string) => ConnectionLease | undefined;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  backoff?: Backoff;
  /** Writes `enabled` of `[channels.<name>]` to config.toml, so enable/disable survive a restart. */
  persistEnabled?: (name: string, enabled: boolean) => Promise<void>;
  /** Claims a push network's message id among gateways sharing Redis (inbound.ts). */
  claim?: () => ((key: string) => Promise<boolean>) | undefined;
  schedule?: (fn: () => void, ms: number) => () => void;
  random?: () => number;
  typingEveryMs?: number;
}

/** The part of the settings repository that holds channel cursors. */
export type CursorStore = Pick<SettingsRepository, 'get' | 'set' | 'delete'>;

/** The settings key of a channel's cursor. */
export const cursorKey = (name: string) => `channels.${name}.cursor`;

const defaultSchedule = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Every configured channel: its connection (runner), the shared inbound path, the message store
 * and pairings. Routes, the approval gate and /status talk to this, never to an adapter.
 */
export function createChannelService(deps: ChannelServiceDeps) {
  const pairings = createPairings({ store: deps.store, now: deps.now });
  const inbound = createInbound({
    store: deps.store,
    pairings,
    runTurn: deps.runTurn,
    metrics: deps.metrics,
    logger: deps.logger,
    now: deps.now,
    typingEveryMs: deps.typingEveryMs,
    claim: deps.claim,
  });
  const entries = new Map<string, { ctx: ChannelContext; runner: ChannelRunner }>();

  function channelCursor(name: string, log: Logger): ChannelCursor {
    return {
      async read() {
        const value = await deps.cursors?.().get(cursorKey(name));
        return typeof value === 'string' ? value : undefined;
      },
      async write(position) {
        try {
          await deps.cursors?.().set(cursorKey(name), position);
        } catch (error) {
          log.warn({ err: String(error) }, 'channel cursor not saved');
        }
      },
    };
  }

  for (const [name, config] of Object.entries(deps.channels)) {
    const log = deps.logger.child({ channel: name });
    const ctx: ChannelContext = {
      name,
      config,
      // Replies to turns already running still go out while a disabled channel winds down.
      adapter: () => runner.anyAdapter(),
      buckets: createTokenBuckets({ perMinute: () => config.rate_limit_per_minute, now: deps.now }),
      errors: { count: 0 },
      failed: (reason) => runner.failed(reason),
    };
    const runner: ChannelRunner = createChannelRunner({
      name,
      enabled: config.enabled,
      createAdapter: () => deps.createAdapter(name, config),
      link: (events) => {
        const rejected = (reason: string) => {
          ctx.errors.count += 1;
          deps.metrics.messagesErrorsTotal.inc({ channel: channelLabel(config.type) });
          log.warn({ reason }, 'channel input refused');
        };
        return {
          ...events,
          // Over a cap (inbound-caps.ts): refused and counted, and the adapter moves on.
          receive: (message) => {
            const problem = inboundProblem(message);
            if (problem === undefined) return inbound.receive(ctx, withinNameCap(message));
            rejected(problem);
            return Promise.resolve();
          },
          claim: (key, untilMs) => claimOnce(deps.store(), name, key, untilMs, deps.now()),
          cursor: channelCursor(name, log),
          rejected,
          logger: log,
        };
      },
      lease: deps.lease?.(name),
      backoff: deps.backoff ?? DEFAULT_BACKOFF,
      schedule: deps.schedule ?? defaultSchedule,
      random: deps.random ?? Math.random,
      logger: deps.logger,
    });
    entries.set(name, { ctx, runner });
  }

  function entry(name: string) {
    const found = entries.get(name);
    if (!found) throw notFound(`No channel named '${name}' is configured`);
    return found;
  }

  let sweeper: (() => void) | undefined;

  /** Deletes expired claims (`channel_seen`); a failure is logged and tried again next time. */
  function pruneSeen(): void {
    void (async () => {
      try {
        const pruned = await deps.store().pruneSeen(deps.now());
        if (pruned > 0) deps.logger.debug({ pruned }, 'expired channel claims pruned');
      } catch (error) {
        deps.logger.warn({ err: String(error) }, 'expired channel claims not pruned');
      }
    })();
  }

  /** The change takes effect either way; a config.toml that cannot be written is logged. */
  async function remember(name: string, enabled: boolean): Promise<void> {
    try {
      await deps.persistEnabled?.(name, enabled);
    } catch (error) {
      deps.logger.warn(
        { channel: name, enabled, err: error instanceof Error ? error.message : String(error) },
        'config.toml not updated: the change lasts until the gateway restarts',
      );
    }
  }

  return {
    names: () => [...entries.keys()],

    /** Starts connecting every enabled channel; never waits for (or fails on) a network. */
    start(): void {
      for (const { runner } of entries.values()) void runner.start();
      if (entries.size > 0) pruneSeen();
      const every = setInterval(() => {
        for (const { ctx } of entries.values()) ctx.buckets.sweep();
        if (entries.size > 0) pruneSeen();
      }, PRUNE_EVERY_MS);
      every.unref();
      sweeper = () => clearInterval(every);
    },

    async list() {
      return Promise.all(
        [...entries.values()].map(async ({ ctx, runner }) => {
          const counts = await deps.store().counts(ctx.name);
          return {
            name: ctx.name,
            type: ctx.config.type,
            status: runner.status(),
            unread: counts.unread,
            messages_total: counts.total,
            last_message_at: iso(counts.last_at),
          };
        }),
      );
    },

    async detail(name: string) {
      const { ctx, runner } = entry(name);
      const counts = await deps.store().counts(name);
      return {
        name,
        type: ctx.config.type,
        status: runner.status(),
        config: {
          enabled: runner.enabled(),
          reply_mode: ctx.config.reply_mode,
          rate_limit_per_minute: ctx.config.rate_limit_per_minute,
          group_context: ctx.config.group_context,
        },
        stats: {
          messages_in_total: counts.in,
          messages_out_total: counts.out,
          errors_total: ctx.errors.count,
        },
        ...(runner.lastError() ? { last_error: runner.lastError() } : {}),
      };
    },

    enable: async (name: string) => {
      const { runner } = entry(name);
      await remember(name, true);
      await runner.enable();
    },
    disable: async (name: string) => {
      const { runner } = entry(name);
      await remember(name, false);
      await runner.disable();
    },
    reconnect: (name: string) => entry(name).runner.reconnect(),

    async messages(name: string, limit: number) {
      entry(name);
      const [rows, counts] = await Promise.all([
        deps.store().listMessages(name, limit),
        deps.store().counts(name),
      ]);
      return {
        messages: rows.map((row) => ({
          id: row.id,
          direction: row.direction,
          text: row.text,
          ...(row.direction === 'in' && row.user !== null ? { user: row.user } : {}),
          chat_id: row.chat_id,
          timestamp: new Date(row.timestamp).toISOString(),
        })),
        total: counts.total,
      };
    },

    markRead(name: string): Promise<number> {
      entry(name);
      return deps.store().markRead(name);
    },

    async send(name: string, target: string, text: string): Promise<number> {
      const { ctx, runner } = entry(name);
      if (!runner.adapter())
        throw new HearthError('conflict', `Channel '${name}' is ${runner.status()}, not connected`);
      try {
        return await inbound.send(ctx, target, text);
      } catch (error) {
        ctx.errors.count += 1;
        deps.metrics.messagesErrorsTotal.inc({ channel: channelLabel(ctx.config.type) });
        throw new HearthError(
          'upstream',
          `Channel '${name}' could not send: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    },

    async pairings(name: string) {
      entry(name);
      return (await pairings.list(name)).map((pairing) => ({
        sender_id: pairing.sender_id,
        status: pairing.status,
        ...(pairing.code ? { code: pairing.code } : {}),
        created_at: new Date(pairing.created_at).toISOString(),
        approved_at: iso(pairing.approved_at),
      }));
    },

    async approvePairing(name: string, code: string) {
      entry(name);
      const approved = await pairings.approve(name, code);
      if (!approved) throw notFound(`No pending pairing code ${code} on channel '${name}'`);
      deps.logger.info({ channel: name }, 'sender paired');
      return { approved: true, sender_id: approved.sender_id };
    },

    /** An HTTP delivery for a push-style channel (webhook, WhatsApp): verified by the adapter. */
    async webhook(name: string, request: WebhookRequest): Promise<WebhookAnswer> {
      const found = entries.get(name);
      const adapter = found?.runner.anyAdapter();
      if (!found || !adapter?.webhook) throw notFound(`No webhook channel named '${name}'`);
      if (!found.runner.enabled())
        throw new HearthError('unavailable', `Channel '${name}' is disabled`);
      try {
        return await adapter.webhook(request);
      } catch (error) {
        found.ctx.errors.count += 1;
        deps.metrics.messagesErrorsTotal.inc({ channel: channelLabel(found.ctx.config.type) });
        deps.logger.warn(
          { channel: name, err: error instanceof Error ? error.message : String(error) },
          'webhook delivery refused',
        );
        throw error;
      }
    },

    /** Approval notices: to the chat the session's messages came from, when it was a channel. */
    notice: (sessionId: string, text: string) => inbound.notice(sessionId, text),

    /** Null when no channel is enabled; else whether at least one is connected (/ready). */
    connected(): boolean | null {
      const enabled = [...entries.values()].filter(({ runner }) => runner.enabled());
      if (enabled.length === 0) return null;
      // A standby gateway is healthy: a peer holds the connection.
      return enabled.some(({ runner }) => ['connected', 'standby'].includes(runner.status()));
    },

    /**
     * `/status` backends: each channel's network and state, so a failure is visible, and what
     * its configuration leaves open (caveats.ts).
     */
    backends(): Record<string, string> {
      return Object.fromEntries(
        [...entries.values()].map(({ ctx, runner }) => {
          const caveat = channelCaveat(ctx.config);
          return [
            `channel.${ctx.name}`,
            `${ctx.config.type}: ${runner.status()}${runner.lastError() ? ` (${runner.lastError()})` : ''}${caveat ? `; ${caveat}` : ''}`,
          ];
        }),
      );
    },

    idle: () => inbound.idle(),

    /** Lets the turns already running reply, then disconnects every channel gracefully. */
    async close(): Promise<void> {
      sweeper?.();
      await inbound.idle();
      await Promise.all([...entries.values()].map(({ runner }) => runner.close()));
    },
  };
}

export type ChannelService = ReturnType<typeof createChannelService>;
