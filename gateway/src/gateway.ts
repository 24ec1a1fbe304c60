import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { agentArea } from './agent/area.ts';
import { APPROVAL_EXPIRY_MS, DENIED_TEXT } from './approvals/approval-service.ts';
import { approvalsArea } from './approvals/area.ts';
import { createDecisionTokens, decisionTokenSecret } from './approvals/decision-tokens.ts';
import { channelsArea } from './channels/area.ts';
import { SUMMARY_PROMPT } from './agent/build-agent.ts';
import { createConversationStore } from './agent/conversations.ts';
import type { HearthConfig } from './config/schema.ts';
import { resolveDbPath } from './config/state-dir.ts';
import { updateConfigFile, updateConfigTable } from './config/write.ts';
import { unavailable } from './errors.ts';
import { databaseArea } from './db/area.ts';
import { conversationSockets } from './events/local.ts';
import { canvasArea } from './canvas/area.ts';
import { openCanvasStore } from './canvas/open-store.ts';
import { assertSafeBinding, isLoopbackHost } from './http/binding.ts';
import { hubArea } from './hub/area.ts';
import { logsArea } from './logs/area.ts';
import { mergedBackends, startupPhases, type Area } from './lifecycle/area.ts';
import { serveAreas } from './lifecycle/serve-areas.ts';
import { createStartup } from './lifecycle/startup.ts';
import type { Gateway, GatewayDeps } from './gateway-contract.ts';
import { mcpArea } from './mcp/area.ts';
import { localModelArea } from './local-model/area.ts';
import { memoryArea } from './memory/area.ts';
import { createHostStats } from './observability/host-stats.ts';
import { createMetrics } from './observability/metrics.ts';
import { orchestratorArea } from './orchestrator/area.ts';
import { privacyArea } from './privacy/area.ts';
import { pushArea } from './push/area.ts';
import { providersArea } from './providers/area.ts';
import { scaleOutArea } from './scale-out/area.ts';
import { settingsArea } from './settings/area.ts';
import { skillsArea } from './skills/area.ts';
import { createSkillIsolation } from './skills/host/isolation.ts';
import { createSidecarSkillIsolation } from './skills/host/sidecar-isolation.ts';
import { scanPackage } from './skills/scanner/scan-package.ts';
import { createSkillValidator } from './skills/validate/validator.ts';
import { statusArea } from './status/area.ts';
import { toolsArea } from './tools/area.ts';
import { configuredSecrets } from './tools/build-tools.ts';
import { sanitiseEnv } from './tools/executors/sanitise-env.ts';
import { createToolRegistry } from './tools/registry.ts';
import { VERSION } from './version.ts';
import { voiceArea } from './voice/area.ts';
import { defaultWebAssetsDir } from './web-client/assets-dir.ts';
import { webClientArea } from './web-client/area.ts';

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
    leaseTiming: deps.leaseTiming,
  });
  // Carried by approval pushes, so the service worker's actions need no API key.
  const decisionTokens = createDecisionTokens({
    secret: decisionTokenSecret(config.gateway.api_key),
    now,
  });
  const approvals = approvalsArea({
    decisionTokens,
    security: config.security,
    configPath: paths.configPath,
    allowlist: () => database.database().allowlist,
    approvals: () => toolsRuntime.runtime().approvals,
    toolsReady: () => toolsRuntime.peek() !== undefined,
  });
  const push = pushArea({ home: paths.home, logger, now, agent: deps.pushAgent });
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
    // No socket of the session saw the notice: a push to the subscribed browsers.
    unseenApproval: (approval, text) => {
      const expiresAt = approval.created_at * 1000 + (deps.approvalExpiryMs ?? APPROVAL_EXPIRY_MS);
      return push.notify({
        title: `Approve ${approval.tool_name}?`,
        body: text,
        approval_id: approval.id,
        decision_tokens: {
          approve: decisionTokens.mint(approval.id, 'approve', expiresAt),
          deny: decisionTokens.mint(approval.id, 'deny', expiresAt),
        },
      });
    },
    channelNotice: (sessionId, text) => channels.notice(sessionId, text),
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
      config.security.executor === 'sandbox'
        ? createSidecarSkillIsolation({
            url: config.security.sandbox_url,
            token: () => config.security.sandbox_token,
            logger,
            limits: { idleMs: config.skills.host_idle_seconds * 1000 },
            onRequest: (_skill, request) => privacy.recordRequest(request.method, request.url),
          })
        : createSkillIsolation({
            executor: config.security.executor,
            logger,
            env: deps.processEnv,
            // No configured secret reaches a skill, by name or by value.
            secretValues: configuredSecrets(config),
            // An idle host is stopped (its memory returned) and restarted by the next call.
            limits: { idleMs: config.skills.host_idle_seconds * 1000 },
            // Skills granted network access report their requests to the privacy audit.
            onRequest: (_skill, request) => privacy.recordRequest(request.method, request.url),
          }),
    scan: scanPackage,
    logger,
    now,
  });
  const hub = hubArea({
    catalog: skills.catalog,
    scan: scanPackage,
    fetch: deps.hubNetwork?.fetch,
    resolve: deps.hubNetwork?.resolve,
    allowPrivateHosts: config.security.hub_allow_private_hosts,
    logger,
  });
  const mcp = mcpArea({
    servers: config.mcp.servers,
    tools,
    gate: (request) => toolsRuntime.runtime().approvals.gate(request),
    deniedText: DENIED_TEXT,
    // The entry's env only, through the shared sanitiser: no provider key or configured secret.
    childEnv: (env) => sanitiseEnv(env, configuredSecrets(config)),
    serverCommand: deps.mcpServerCommand,
    // The spawned `hearth mcp` gets this gateway's URL and key, and nothing else secret.
    serverEnv: () => ({
      ...sanitiseEnv(deps.processEnv ?? {}, configuredSecrets(config)),
      HEARTH_GATEWAY_URL: localUrl(),
      ...(config.gateway.api_key === '' ? {} : { HEARTH_API_KEY: config.gateway.api_key }),
    }),
    updateConfig: (section, values) => updateConfigFile(paths.configPath, section, values),
    timing: deps.mcpTiming,
    version: VERSION,
    logger,
  });
  const orchestrator = orchestratorArea({
    nodes: () => database.database().orchestratorNodes,
    memory: () => {
      const { service } = memory.memory();
      const longTerm = database.database().memory;
      return {
        store: (entry) => service.store(entry),
        list: (filter) => longTerm.list(filter),
        removeEntries: (ids) => service.removeEntries(ids),
        removeSession: (sessionId) => service.removeSession(sessionId),
        sessions: () => longTerm.sessions(),
      };
    },
    router,
    metrics,
    logger,
    now,
    monotonicNow,
  });
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
    delegateToNode: (node, message) => orchestrator.service.delegate(node, message),
    metrics,
    logger,
    now,
  });
  const voice = voiceArea({
    config: config.voice,
    configPath: paths.configPath,
    modelDir: join(paths.home, 'models'),
    runTurn: (input) => agent.pipeline().runTurn(input),
    turnsAvailable: agent.available,
    engines: deps.voiceEngines,
    socketFrameLimits: deps.socketFrameLimits,
    metrics,
    logger,
  });
  const canvas = canvasArea({
    config: config.canvas,
    openStore: (limits) => openCanvasStore({ cacheUrl: config.memory.cache_url, limits, logger }),
    logger,
    now,
  });
  const webClient = webClientArea({
    assetsDir: deps.webAssetsDir === undefined ? defaultWebAssetsDir() : deps.webAssetsDir,
  });
  const channels = channelsArea({
    channels: config.channels,
    store: () => database.database().channels,
    cursors: () => database.database().settings,
    runTurn: (input) => agent.pipeline().runTurn(input),
    // Among gateways sharing Redis, one holds each long-polling channel at a time.
    lease: () => (name) => scaleOut.peek()?.lease(`channel:${name}`),
    // A push network's delivery reaching several gateways is answered by one.
    claim: () => scaleOut.peek()?.claim,
    fetch,
    resolveTxt: deps.resolveTxt,
    metrics,
    logger,
    now,
    backoff: deps.channelBackoff,
    persistEnabled: (name, enabled) =>
      updateConfigTable(paths.configPath, 'channels', name, { enabled }),
  });
  const localModel = localModelArea({
    enabled: config.models.pull_local_model,
    model: config.models.local,
    baseUrl: deps.providerEndpoints?.ollama ?? config.models.ollama_base_url,
    fetch,
    logger,
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
      voice: voice.summary,
      semanticAvailable: memory.semanticAvailable,
      backends: () => ({
        ...mergedBackends(areas),
        ...(deps.runtime ? { allocator: deps.runtime.allocator, heap: deps.runtime.heap } : {}),
      }),
      channelConnected: channels.connected,
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
    mcp,
    orchestrator,
    agent,
    voice,
    canvas,
    push,
    webClient,
    channels,
    logs,
    // Last: a first start may pull the local model, and /ready waits for it.
    localModel,
  ];
  const served = serveAreas(areas, { gateway: config.gateway, version: VERSION, logger });

  /** This gateway's own URL for a local client (a wildcard bind is reached on loopback). */
  function localUrl(): string {
    const address = served.server.address();
    if (address === null || typeof address === 'string') throw unavailable('Not listening yet');
    const wildcard = address.address === '0.0.0.0' || address.address === '::';
    const host = wildcard
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
    return `http://${host}:${address.port}`;
  }

  let ready: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const runStartup = () => (ready ??= startup.run(startupPhases(areas)));

  return {
    app: served.app,
    server: served.server,
    sockets: served.sockets,
    openApi: served.openApi,
    metrics,
    startup,
    router,
    usage: providers.usage,
    settings: settings.service,
    tools,
    toolRuntime: toolsRuntime.runtime,
    pipeline: agent.pipeline,
    memory: memory.memory,
    voice: voice.service,
    listen: async () => {
      const address = await served.listen();
      runStartup().catch((error: unknown) => logger.error({ err: error }, 'start-up failed'));
      return address;
    },
    whenReady: runStartup,
    close: () => (closing ??= served.close(ready)),
  };
}
