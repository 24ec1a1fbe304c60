import type { Logger } from 'pino';
import type { ChannelConfig } from '../config/schema.ts';
import type { ChannelRepository } from '../db/ports.ts';
import type { Area } from '../lifecycle/area.ts';
import { stillStarting } from '../lifecycle/late.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Backoff, ConnectionLease } from './channel-runner.ts';
import type { ChannelService, CursorStore } from './channel-service.ts';
import type { RunTurn } from './inbound.ts';
import type { ChannelAdapter, TxtResolver } from './ports.ts';
import { channelRoutes } from './routes.ts';
import { onFirstUse, routesAfter } from '../lifecycle/first-use.ts';
import type { ApprovalNotices } from '../approvals/ports.ts';
import type { Database } from '../db/ports.ts';
import { updateConfigTable } from '../config/write.ts';
import { defineArea } from '../lifecycle/install.ts';
import type { ScaleOut } from '../scale-out/ports.ts';

export interface ChannelsAreaDeps {
  channels: Readonly<Record<string, ChannelConfig>>;
  store: () => ChannelRepository;
  /** Where channel cursors are kept (the settings table). */
  cursors?: () => CursorStore;
  /** The chat pipeline's turn, the same REST and WebSocket use. */
  runTurn: RunTurn;
  /** One holder per channel among gateways sharing Redis; absent: this gateway holds all. */
  lease?: () => ((name: string) => ConnectionLease | undefined) | undefined;
  fetch: typeof globalThis.fetch;
  /** DNS TXT lookups (the email channel's DKIM keys); the system's resolver when absent. */
  resolveTxt?: TxtResolver;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  /** Tests: adapters built another way, quicker reconnects. */
  createAdapter?: (name: string, config: ChannelConfig) => Promise<ChannelAdapter>;
  backoff?: Backoff;
  /** Keeps enable/disable in config.toml (absent: they last until restart). */
  persistEnabled?: (name: string, enabled: boolean) => Promise<void>;
  /** Claims a push network's message id among gateways sharing Redis; absent: none share. */
  claim?: () => ((key: string) => Promise<boolean>) | undefined;
}

export interface ChannelsArea extends Area {
  readonly service: () => ChannelService;
  /** An approval notice to the chat a session came from; false when it came from none. */
  readonly notice: (sessionId: string, text: string) => Promise<boolean>;
  /** `/ready`'s `channel_connected`: null when no channel is enabled. */
  readonly connected: () => boolean | null;
}

/**
 * Messaging channels: Telegram, WhatsApp, signed webhooks… each through the same turn service.
 * With a `[channels.<name>]` table the service (channel-service.ts and what it runs) starts in
 * the start-up phase; without one it loads on first use (a channel added at run time, a
 * `/channels` request), and a gateway with no channel loads none of it.
 */
export function channelsArea(deps: ChannelsAreaDeps): ChannelsArea {
  const logger = deps.logger.child({ area: 'channels' });
  const configured = Object.values(deps.channels).some((channel) => channel.enabled);
  let started = false;
  const service = onFirstUse<ChannelService>(async () => {
    const [{ createChannelService }, { buildChannelAdapter }, { systemTxtResolver }] =
      await Promise.all([
        import('./channel-service.ts'),
        import('./build-adapter.ts'),
        import('./system-dns.ts'),
      ]);
    const network = { resolveTxt: deps.resolveTxt ?? systemTxtResolver() };
    const built = createChannelService({
      channels: deps.channels,
      createAdapter:
        deps.createAdapter ??
        ((name, config) =>
          buildChannelAdapter(
            name,
            config,
            {
              fetch: deps.fetch,
              now: deps.now,
              logger: logger.child({ channel: name }),
              refused: (limit) =>
                deps.metrics.extensionInputRefusedTotal.inc({ source: config.type, limit }),
            },
            network,
          )),
      store: deps.store,
      cursors: deps.cursors,
      runTurn: deps.runTurn,
      lease: deps.lease?.(),
      metrics: deps.metrics,
      logger,
      now: deps.now,
      backoff: deps.backoff,
      persistEnabled: deps.persistEnabled,
      claim: deps.claim,
    });
    built.start();
    return built;
  });
  /** The service for the routes: 503 "Channels are starting" before the start-up phase. */
  const current = (): ChannelService => {
    const built = service.peek();
    if (!built) throw stillStarting({ name: 'Channels', plural: true });
    return built;
  };
  const prepare = async (): Promise<void> => {
    if (started) await service.get();
  };
  return {
    name: 'channels',
    routes: routesAfter(prepare, channelRoutes(current)),
    async start() {
      started = true;
      if (Object.keys(deps.channels).length > 0) await service.get();
    },
    status: () => service.peek()?.backends() ?? {},
    service: current,
    notice: (sessionId, text) => service.peek()?.notice(sessionId, text) ?? Promise.resolve(false),
    // Enabled channels make readiness wait for a connection from the very start.
    connected: () => service.peek()?.connected() ?? (configured ? false : null),
    close: () => service.peek()?.close(),
  };
}

/** The channels area's options (tests reconnect sooner and serve their own DKIM keys). */
export interface ChannelsOptions {
  /** How soon a failed channel connection is retried (doubling up to `maxMs`). */
  backoff?: Backoff;
  /** DNS TXT lookups: the DKIM keys that verify an email's sender (the system's by default). */
  resolveTxt?: TxtResolver;
}

export interface ChannelsNeeds {
  database: { database: () => Database };
  agent: { pipeline: () => { runTurn: RunTurn } };
  scaleOut: { peek: () => ScaleOut | undefined };
  approvals: { notices: ApprovalNotices };
}

export const channels = defineArea(
  'channels',
  (kernel, needs: ChannelsNeeds, options: ChannelsOptions | undefined) => {
    const area = channelsArea({
      channels: kernel.config.channels,
      store: () => needs.database.database().channels,
      cursors: () => needs.database.database().settings,
      runTurn: (input) => needs.agent.pipeline().runTurn(input),
      // Among gateways sharing Redis, one holds each long-polling channel at a time.
      lease: () => (name) => needs.scaleOut.peek()?.lease(`channel:${name}`),
      // A push network's delivery reaching several gateways is answered by one.
      claim: () => needs.scaleOut.peek()?.claim,
      fetch: kernel.fetch,
      resolveTxt: options?.resolveTxt,
      metrics: kernel.metrics,
      logger: kernel.logger,
      now: kernel.now,
      backoff: options?.backoff,
      persistEnabled: (name, enabled) =>
        updateConfigTable(kernel.paths.configPath, 'channels', name, { enabled }),
    });
    // An approval notice also goes, as plain text, to the chat its session came from.
    needs.approvals.notices.subscribe('chat', (notice) =>
      area.notice(notice.approval.session_id, notice.text),
    );
    return area;
  },
);
