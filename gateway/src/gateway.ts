import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { agentArea } from './agent/area.ts';
import { approvalsArea } from './approvals/area.ts';
import { SUMMARY_PROMPT } from './agent/build-agent.ts';
import { createConversationStore } from './agent/conversations.ts';
import type { HearthConfig } from './config/schema.ts';
import { resolveDbPath } from './config/state-dir.ts';
import { databaseArea } from './db/area.ts';
import { conversationSockets } from './events/local.ts';
import { assertSafeBinding, isLoopbackHost } from './http/binding.ts';
import { hubArea } from './hub/area.ts';
import { logsArea } from './logs/area.ts';
import { mergedBackends, startupPhases, type Area } from './lifecycle/area.ts';
import { serveAreas } from './lifecycle/serve-areas.ts';
import { createStartup } from './lifecycle/startup.ts';
import type { Gateway, GatewayDeps } from './gateway-contract.ts';
import { memoryArea } from './memory/area.ts';
import { createHostStats } from './observability/host-stats.ts';
import { createMetrics } from './observability/metrics.ts';
import { privacyArea } from './privacy/area.ts';
import { providersArea } from './providers/area.ts';
import { scaleOutArea } from './scale-out/area.ts';
import { settingsArea } from './settings/area.ts';
import { skillsArea } from './skills/area.ts';
import { createSkillIsolation } from './skills/host/isolation.ts';
import { scanPackage } from './skills/scanner/scan-package.ts';
import { createSkillValidator } from './skills/validate/validator.ts';
import { statusArea } from './status/area.ts';
import { toolsArea } from './tools/area.ts';
import { configuredSecrets } from './tools/build-tools.ts';
import { createToolRegistry } from './tools/registry.ts';
import { VERSION } from './version.ts';

export type { ListeningAddress } from './lifecycle/serve-areas.ts';
export type { Gateway, GatewayDeps } from './gateway-contract.ts';

export const AGENT_NAME = 'hearth';

/**
 * Builds the whole gateway without binding a port: the areas in start-up order, served by one
 * HTTP server and socket router (lifecycle/serve-areas.ts). Adding an area is one folder with
 * its factory and one line in the list below. No module state: build as many as you like.
 */
export function createGateway(config: HearthConfig, deps: GatewayDeps): Gateway {
  assertSafeBinding(config.gateway);
  const { logger, paths } = deps;
  const monotonicNow = deps.monotonicNow ?? (() => performance.now());
  const startedAt = monotonicNow();
  const now = deps.now ?? Date.now;
  const fetch = deps.fetch ?? globalThis.fetch;
  const metrics = createMetrics(createHostStats(paths.home));
  const startup = createStartup(logger);
  const tools = createToolRegistry();
  const conversations = createConversationStore({
    idleTimeoutMs: config.gateway.session_idle_timeout_minutes * 60_000,
    now,
    maxSessions: deps.maxLiveSessions,
  });

  const providers = providersArea({
    models: () => config.models,
    endpoints: deps.providerEndpoints,
    fetch,
    metrics,
    logger,
  });
  const { router } = providers;
  const summarise = async (text: string): Promise<string> =>
    (
      await router.generate({
        system: SUMMARY_PROMPT,
        messages: [{ role: 'user', content: text }],
        complexity: 'simple',
        maxOutputTokens: 800,
      })
    ).text;
  const settings = settingsArea({ config, configPath: paths.configPath, router, logger });
  const privacy = privacyArea({
    dbPath: paths.auditDbPath,
    localServices: [config.models.ollama_base_url, config.memory.vector_store_url],
    trustPrivate: config.security.trust_private_services,
    logger,
  });
  const database = databaseArea({
    openDatabase: deps.openDatabase,
    location: resolveDbPath(config.memory.db_path, paths),
    logger,
  });
  const memory = memoryArea({
    config: config.memory,
    modelDir: join(paths.home, 'models'),
    longTerm: () => database.database().memory,
    summarise,
    compactSession: (sessionId) => agent.pipeline().compactSession(sessionId),
    metrics,
    logger,
    now,
    embedder: deps.embedder,
  });
  const scaleOut = scaleOutArea({
    cacheUrl: config.memory.cache_url,
    sockets: conversationSockets(conversations),
    // This process among the gateways sharing `[memory] cache_url`.
    gatewayId: randomUUID(),
    logger,
    now,
    presence: deps.presenceTiming,
  });
  const approvals = approvalsArea({
    security: config.security,
    configPath: paths.configPath,
    allowlist: () => database.database().allowlist,
    approvals: () => toolsRuntime.runtime().approvals,
    toolsReady: () => toolsRuntime.peek() !== undefined,
  });
  const toolsRuntime = toolsArea({
    config,
    home: paths.home,
    policy: approvals.policy,
    terminalTokenFile: paths.terminalTokenFile,
    loopbackBind: isLoopbackHost(config.gateway.host),
    tools,
    allowlist: () => database.database().allowlist,
    board: () => scaleOut.scaleOut().board,
    events: () => scaleOut.scaleOut().events,
    processEnv: deps.processEnv ?? {},
    approvalExpiryMs: deps.approvalExpiryMs,
    fetch,
    metrics,
    logger,
    now,
  });
  const skills = skillsArea({
    home: paths.home,
    tools,
    validate: createSkillValidator(),
    isolation: () =>
      createSkillIsolation({
        executor: config.security.executor,
        logger,
        env: deps.processEnv,
        // No configured secret reaches a skill, by name or by value.
        secretValues: configuredSecrets(config),
        // Skills granted network access report their requests to the privacy audit.
        onRequest: (_skill, request) => privacy.recordRequest(request.method, request.url),
      }),
    scan: scanPackage,
    logger,
    now,
  });
  const hub = hubArea({ catalog: skills.catalog, scan: scanPackage, fetch, logger });
  const agent = agentArea({
    home: paths.home,
    router,
    memory: memory.memory,
    conversations,
    tools,
    settings: settings.service,
    sessionContext: privacy.sessionContext,
    approvals: () => toolsRuntime.peek()?.approvals,
    // Before scale-out has started there are no peers to tell yet.
    clearSession: (sessionId) =>
      scaleOut.peek()?.events.clear(sessionId) ?? Promise.resolve(conversations.delete(sessionId)),
    socketFrameLimits: deps.socketFrameLimits,
    metrics,
    logger,
    now,
  });
  const logs = logsArea({ tail: deps.logTail, frameLimits: deps.socketFrameLimits });
  const status = statusArea({
    version: VERSION,
    agentName: AGENT_NAME,
    startup,
    hostStats: createHostStats(paths.home),
    metrics,
    uptimeMs: () => monotonicNow() - startedAt,
    sources: {
      activeSessions: () => conversations.size(),
      runtimeAvailable: agent.available,
      voice: () => ({ stt_available: false, tts_available: false, wake_word_active: false }),
      semanticAvailable: memory.semanticAvailable,
      backends: () => ({
        ...mergedBackends(areas),
        ...(deps.runtime ? { allocator: deps.runtime.allocator, heap: deps.runtime.heap } : {}),
      }),
      channelConnected: () => null,
    },
  });

  /** Start-up order; shutdown runs in reverse. */
  const areas: Area[] = [
    status,
    providers,
    settings,
    privacy,
    database,
    memory,
    scaleOut,
    approvals,
    toolsRuntime,
    skills,
    hub,
    agent,
    logs,
  ];
  const served = serveAreas(areas, { gateway: config.gateway, version: VERSION, logger });

  let ready: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const runStartup = () => (ready ??= startup.run(startupPhases(areas)));

  return {
    app: served.app,
    server: served.server,
    sockets: served.sockets,
    metrics,
    startup,
    router,
    usage: providers.usage,
    settings: settings.service,
    tools,
    toolRuntime: toolsRuntime.runtime,
    pipeline: agent.pipeline,
    memory: memory.memory,
    listen: async () => {
      const address = await served.listen();
      runStartup().catch((error: unknown) => logger.error({ err: error }, 'start-up failed'));
      return address;
    },
    whenReady: runStartup,
    close: () => (closing ??= served.close(ready)),
  };
}
