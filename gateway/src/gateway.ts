import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { HearthConfig } from './config/schema.ts';
import type { SecretResolverDeps } from './config/secrets.ts';
import { resolveDbPath, type StatePaths } from './config/state-dir.ts';
import { describeKeywordSearch } from './db/keyword-search.ts';
import { trackInFlight } from './http/drain.ts';
import type { Database, OpenDatabase } from './db/ports.ts';
import { createHttpApp } from './http/app.ts';
import { assertSafeBinding } from './http/binding.ts';
import { createHostPolicy } from './http/middleware/hosts.ts';
import { createOriginPolicy } from './http/middleware/origins.ts';
import { createStartup, type Startup } from './lifecycle/startup.ts';
import { createHostStats } from './observability/host-stats.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { createPrivacyAudit, privacyRoutes, type PrivacyAudit } from './privacy/index.ts';
import { buildAgent, SUMMARY_PROMPT } from './agent/build-agent.ts';
import { chatSocketFormA, chatSocketFormB } from './agent/chat-sockets.ts';
import { createConversationStore } from './agent/conversations.ts';
import type { ChatPipeline, PipelineSettings } from './agent/pipeline.ts';
import { chatRoutes } from './agent/routes.ts';
import type { ToolRegistry } from './tools/contract.ts';
import { createToolRegistry } from './tools/registry.ts';
import { late } from './lifecycle/late.ts';
import { runDailyMemoryJob, scheduleArchival } from './memory/archival.ts';
import { buildMemory, type MemoryRuntime } from './memory/build-memory.ts';
import type { Embedder } from './memory/ports.ts';
import { memoryRoutes } from './memory/routes.ts';
import type { ApprovalPolicy } from './approvals/ports.ts';
import { approvalRoutes } from './approvals/routes.ts';
import { shortId } from './approvals/approval-service.ts';
import { updateConfigFile } from './config/write.ts';
import { isLoopbackHost } from './http/binding.ts';
import { buildTools, terminalEnabled, type ToolRuntime } from './tools/build-tools.ts';
import { terminalSocket } from './tools/terminal/terminal-socket.ts';
import { loadOrCreateTerminalToken } from './tools/terminal/terminal-token.ts';
import type { ProviderName } from './providers/catalog.ts';
import { createLlmRouter, type LlmRouter } from './providers/router.ts';
import { providerRoutes } from './providers/routes.ts';
import { configuredProbeOrigins } from './providers/status.ts';
import { settingsRoutes } from './settings/routes.ts';
import { createSettingsService, type SettingsService } from './settings/settings-service.ts';
import { apiStatusRoutes, rootStatusRoutes } from './status/routes.ts';
import type { StatusSources } from './status/status-sources.ts';
import { createUsageTracker, type UsageTracker } from './usage/usage-tracker.ts';
import type { RuntimeReport } from './config/runtime-tuning.ts';
import { VERSION } from './version.ts';
import type { FrameSenderLimits } from './ws/send.ts';
import { createSocketRouter, type SocketRouter } from './ws/socket-router.ts';
import { conversationSockets } from './events/local.ts';
import { buildScaleOut, type ScaleOut } from './scale-out/build-scale-out.ts';
import type { PresenceTiming } from './scale-out/presence.ts';

/** Everything the gateway takes from outside; tests pass fakes, main.ts passes the real ones. */
export interface GatewayDeps {
  logger: Logger;
  paths: StatePaths;
  openDatabase: OpenDatabase;
  /**
   * The resolver config.toml's ENV:/op:// references were read with. Nothing resolves a
   * reference sent over the API: settings take literal secrets only (settings/routes.ts).
   */
  secrets: SecretResolverDeps;
  /** Outbound HTTP for providers (global fetch by default). */
  fetch?: typeof globalThis.fetch;
  /** Base-URL overrides per provider (tests point them at fake servers; proxies). */
  providerEndpoints?: Partial<Record<ProviderName, string>>;
  /** Monotonic milliseconds, for uptime. */
  monotonicNow?: () => number;
  /** Wall clock, epoch milliseconds. */
  now?: () => number;
  /** Replaces the local embedding model (tests use a deterministic one). */
  embedder?: Embedder;
  /** The process environment; child processes get a sanitised copy (default: empty). */
  processEnv?: Readonly<Record<string, string | undefined>>;
  /** How long an approval stays pending (the spec's 120 s unless a test says otherwise). */
  approvalExpiryMs?: number;
  /** Scale-out liveness: how long this gateway's presence key lives, how often it is refreshed. */
  presenceTiming?: PresenceTiming;
  /** Live sessions kept in process memory (default 10,000; tests lower it). */
  maxLiveSessions?: number;
  /** Chat sockets' back-pressure limits (`ws/send.ts` defaults; tests lower them). */
  socketFrameLimits?: Partial<FrameSenderLimits>;
  /** The process's allocator and heap set-up, reported in /status `backends`. */
  runtime?: RuntimeReport;
}

export interface ListeningAddress {
  host: string;
  port: number;
  url: string;
}

export interface Gateway {
  readonly app: Express;
  readonly server: Server;
  readonly sockets: SocketRouter;
  readonly metrics: Metrics;
  readonly startup: Startup;
  readonly router: LlmRouter;
  readonly usage: UsageTracker;
  readonly settings: SettingsService;
  readonly tools: ToolRegistry;
  /** The approval gate, executor and browser, once start-up has built them. */
  toolRuntime(): ToolRuntime;
  /** The chat pipeline, once start-up has built it. */
  pipeline(): ChatPipeline;
  /** The memory tiers, once start-up has built them. */
  memory(): MemoryRuntime;
  /** Binds the configured host/port, then runs the start-up phases in the background. */
  listen(): Promise<ListeningAddress>;
  /** Settles when start-up has finished (or failed). */
  whenReady(): Promise<void>;
  /** Stops accepting, drains in-flight requests (up to the shutdown timeout), closes stores. */
  close(): Promise<void>;
}

export const AGENT_NAME = 'hearth';

/** Builds the whole gateway without binding a port. No module state: build as many as you like. */
export function createGateway(config: HearthConfig, deps: GatewayDeps): Gateway {
  assertSafeBinding(config.gateway);
  const { logger } = deps;
  const monotonicNow = deps.monotonicNow ?? (() => performance.now());
  const startedAt = monotonicNow();
  const now = deps.now ?? Date.now;
  const database = late<Database>('The database');
  const privacy = late<PrivacyAudit>('The privacy audit');
  const memory = late<MemoryRuntime>('Memory');
  const pipeline = late<ChatPipeline>('The agent');
  const tools = createToolRegistry();
  const toolRuntime = late<ToolRuntime>('The tools');
  const scaleOut = late<ScaleOut>('Scale-out');
  /** This process among the gateways sharing `[memory] cache_url`. */
  const gatewayId = randomUUID();
  const policy: ApprovalPolicy = {
    security: config.security.security,
    ask: config.security.ask,
    requireShellApproval: config.security.require_shell_approval,
  };
  const pipelineSettings: PipelineSettings = { maxToolSteps: 5 };
  const conversations = createConversationStore({
    idleTimeoutMs: config.gateway.session_idle_timeout_minutes * 60_000,
    now,
    maxSessions: deps.maxLiveSessions,
  });
  let stopArchival: (() => void) | undefined;

  const metrics = createMetrics(createHostStats(deps.paths.home));
  const startup = createStartup(logger);
  const fetch = deps.fetch ?? globalThis.fetch;
  const usage = createUsageTracker(metrics);
  const router = createLlmRouter({
    models: () => config.models,
    endpoints: deps.providerEndpoints,
    fetch,
    usage,
    metrics,
    logger: logger.child({ area: 'providers' }),
  });
  const settings = createSettingsService({
    config,
    configPath: deps.paths.configPath,
    router,
    logger: logger.child({ area: 'settings' }),
  });
  const origins = createOriginPolicy({
    host: config.gateway.host,
    port: () => (server.address() as AddressInfo | null)?.port ?? config.gateway.port,
    extra: config.gateway.cors_origins,
  });
  const hosts = createHostPolicy({
    bindHost: config.gateway.host,
    corsOrigins: config.gateway.cors_origins,
    allowedHosts: config.gateway.allowed_hosts,
  });
  /** `/ws/terminal`'s secret when no API key is set; read or created at listen. */
  let terminalToken = '';

  const sources: StatusSources = {
    activeSessions: () => conversations.size(),
    runtimeAvailable: () => pipeline.peek() !== undefined,
    voice: () => ({ stt_available: false, tts_available: false, wake_word_active: false }),
    semanticAvailable: () => memory.peek()?.service.semanticAvailable() ?? null,
    backends: (): Record<string, string> => ({
      ...(database.peek()
        ? {
            database: database.get().kind,
            keyword_search: describeKeywordSearch(database.get().keywordSearch),
          }
        : {}),
      ...memory.peek()?.backends(),
      ...scaleOut.peek()?.backends(),
      ...(toolRuntime.peek()
        ? {
            executor: toolRuntime.get().executor.kind,
            isolation: toolRuntime.get().executor.isolation,
          }
        : {}),
      ...(deps.runtime ? { allocator: deps.runtime.allocator, heap: deps.runtime.heap } : {}),
    }),
    channelConnected: () => null,
  };
  const statusDeps = {
    version: VERSION,
    agentName: AGENT_NAME,
    startup,
    sources,
    hostStats: createHostStats(deps.paths.home),
    metrics,
    uptimeMs: () => monotonicNow() - startedAt,
  };

  const app = createHttpApp({
    logger,
    version: VERSION,
    apiKey: config.gateway.api_key,
    origins,
    hosts,
    bodyLimitBytes: config.gateway.body_limit_bytes,
    groups: [
      { prefix: '', routes: rootStatusRoutes(statusDeps) },
      {
        prefix: '/api/v1',
        routes: [
          ...apiStatusRoutes(statusDeps),
          ...providerRoutes({
            models: () => config.models,
            router,
            usage,
            fetch,
            endpoints: deps.providerEndpoints,
            // Live checks go only to the hosts of config.toml as loaded, not to one set at run time.
            probeOrigins: configuredProbeOrigins(config.models, deps.providerEndpoints),
          }),
          ...settingsRoutes(settings),
          ...privacyRoutes({
            report: (sessionId) => privacy.get().store.report(sessionId),
            clear: (sessionId) => privacy.get().store.clear(sessionId),
          }),
          ...chatRoutes({
            pipeline: pipeline.get,
            tools,
            conversations,
            // Before the runtime phase there are no peers to tell yet.
            clearSession: (sessionId) =>
              scaleOut.peek()?.events.clear(sessionId) ??
              Promise.resolve(conversations.delete(sessionId)),
            pipelineSettings,
          }),
          ...approvalRoutes({
            approvals: () => toolRuntime.get().approvals,
            allowlist: () => database.get().allowlist,
            policy,
            toolsReady: () => toolRuntime.peek() !== undefined,
            persistPolicy: (next) =>
              updateConfigFile(deps.paths.configPath, 'security', {
                security: next.security,
                ask: next.ask,
                require_shell_approval: next.requireShellApproval,
              }),
          }),
          ...memoryRoutes({
            memory: () => memory.get().service,
            longTerm: () => database.get().memory,
            compactSession: (sessionId) => pipeline.get().compactSession(sessionId),
          }),
        ],
      },
    ],
  });
  const server = createServer(app);
  const drain = trackInFlight(server);
  server.keepAliveTimeout = 65_000;
  const sockets = createSocketRouter({
    origins,
    hosts,
    apiKey: config.gateway.api_key,
    logger: logger.child({ area: 'ws' }),
  });
  sockets.attach(server);
  const socketDeps = {
    pipeline: pipeline.get,
    conversations,
    logger: logger.child({ area: 'chat' }),
    sessionOwners: new WeakMap(),
    metrics,
    frameLimits: deps.socketFrameLimits,
  };
  sockets.register('/ws', chatSocketFormA(socketDeps));
  sockets.register('/ws/chat', chatSocketFormB(socketDeps));
  const terminalServed = terminalEnabled(
    config.security.terminal,
    isLoopbackHost(config.gateway.host),
  );
  if (terminalServed) {
    sockets.register(
      '/ws/terminal',
      terminalSocket({
        historyFile: join(deps.paths.home, 'terminal_history.log'),
        workdir: join(deps.paths.home, 'workspace'),
        env: () => toolRuntime.get().childEnv(),
        logger: logger.child({ area: 'terminal' }),
        now,
      }),
      // A shell never runs without a secret: the API key when set, else the local token.
      { secret: () => terminalToken },
    );
  }

  /** An approval notice to the WebSocket clients of the session that asked, on any gateway. */
  const notifySession = (
    sessionId: string,
    text: string,
    approval: { id: string; tool_name: string; command: string },
  ) => {
    const frame = JSON.stringify({
      type: 'approval_request',
      id: approval.id,
      short_id: shortId(approval.id),
      tool_name: approval.tool_name,
      command: approval.command,
      text,
    });
    return scaleOut.get().events.send(sessionId, frame);
  };

  const summarise = async (text: string): Promise<string> =>
    (
      await router.generate({
        system: SUMMARY_PROMPT,
        messages: [{ role: 'user', content: text }],
        complexity: 'simple',
        maxOutputTokens: 800,
      })
    ).text;

  let ready: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  function runStartup(): Promise<void> {
    ready ??= startup.run([
      {
        name: 'privacy',
        run: () => {
          // Loopback is never egress; the configured local services only where they resolve to it.
          const localHosts = [config.models.ollama_base_url, config.memory.vector_store_url].filter(
            Boolean,
          );
          privacy.set(
            createPrivacyAudit({
              dbPath: deps.paths.auditDbPath,
              localHosts,
              trustPrivate: config.security.trust_private_services,
              logger: logger.child({ area: 'privacy' }),
            }),
          );
          privacy.get().start();
          return privacy.get().localHostsChecked().then(() => undefined);
        },
      },
      {
        name: 'database',
        run: async () => {
          const db = await deps.openDatabase(resolveDbPath(config.memory.db_path, deps.paths));
          database.set(db);
          logger.info({ backend: db.kind, location: db.location }, 'database open');
        },
      },
      {
        name: 'memory',
        run: async () => {
          memory.set(
            await buildMemory({
              config: config.memory,
              modelDir: join(deps.paths.home, 'models'),
              longTerm: () => database.get().memory,
              summarise,
              metrics,
              logger,
              now,
              embedder: deps.embedder,
            }),
          );
        },
      },
      {
        name: 'runtime',
        run: async () => {
          scaleOut.set(
            await buildScaleOut({
              cacheUrl: config.memory.cache_url,
              sockets: conversationSockets(conversations),
              gatewayId,
              logger,
              now,
              presence: deps.presenceTiming,
            }),
          );
          toolRuntime.set(
            await buildTools({
              config,
              home: deps.paths.home,
              policy,
              allowlist: () => database.get().allowlist,
              tools,
              processEnv: deps.processEnv ?? {},
              notify: notifySession,
              approvalExpiryMs: deps.approvalExpiryMs,
              approvalBoard: scaleOut.get().board,
              fetch,
              metrics,
              logger,
              now,
            }),
          );
          pipeline.set(
            await buildAgent({
              home: deps.paths.home,
              router,
              memory: memory.get(),
              conversations,
              tools,
              settings,
              pipelineSettings,
              sessionContext: privacy.get().sessionContext,
              approvals: () => toolRuntime.peek()?.approvals,
              metrics,
              logger,
              now,
            }),
          );
          const archival = scheduleArchival(
            () =>
              runDailyMemoryJob({
                longTermDays: config.memory.long_term_days,
                expireOlderThan: (days) => memory.get().service.expireOlderThan(days),
                longTerm: () => database.get().memory,
                summarise,
                store: (entry) => memory.get().service.store(entry),
                removeEntries: (ids) => memory.get().service.removeEntries(ids),
                logger,
                now,
              }),
            logger,
          );
          stopArchival = () => archival.stop();
        },
      },
    ]);
    return ready;
  }

  async function shutdown(): Promise<void> {
    // Pending approvals are denied first, so turns waiting on them finish and can drain.
    const denying = toolRuntime.peek()?.approvals.close();
    sockets.close();
    drain.begin();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timeout = new Promise<'timeout'>((resolve) => {
      setTimeout(resolve, config.gateway.shutdown_timeout_ms, 'timeout').unref();
    });
    if ((await Promise.race([closed, timeout])) === 'timeout') {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
      await closed;
    }
    await ready?.catch(() => undefined);
    stopArchival?.();
    await denying;
    await toolRuntime.peek()?.close();
    await scaleOut.peek()?.close();
    conversations.close();
    await memory.peek()?.close();
    await database.peek()?.close();
    privacy.peek()?.stop();
    logger.info('gateway stopped');
  }

  return {
    app,
    server,
    sockets,
    metrics,
    startup,
    router,
    usage,
    settings,
    tools,
    toolRuntime: toolRuntime.get,
    pipeline: pipeline.get,
    memory: memory.get,
    listen: async () => {
      if (terminalServed && config.gateway.api_key === '')
        terminalToken = await loadOrCreateTerminalToken(deps.paths.terminalTokenFile);
      return new Promise<ListeningAddress>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.gateway.port, config.gateway.host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          runStartup().catch((error: unknown) => logger.error({ err: error }, 'start-up failed'));
          resolve({
            host: address.address,
            port: address.port,
            url: `http://${host}:${address.port}`,
          });
        });
      });
    },
    whenReady: () => runStartup(),
    close: () => (closing ??= shutdown()),
  };
}
