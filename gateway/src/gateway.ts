import { agent } from './agent/area.ts';
import { approvals } from './approvals/area.ts';
import { canvas } from './canvas/area.ts';
import { channels } from './channels/area.ts';
import type { HearthConfig } from './config/schema.ts';
import { database } from './db/area.ts';
import type { Gateway, GatewayDeps } from './gateway-contract.ts';
import { createNodeHttpFetch } from './http/outbound/node-http-fetch.ts';
import { hub } from './hub/area.ts';
import { installAreas } from './lifecycle/install.ts';
import { createKernel } from './lifecycle/kernel.ts';
import { serveAreas } from './lifecycle/serve-areas.ts';
import { localModel } from './local-model/area.ts';
import { logs } from './logs/area.ts';
import { mcp } from './mcp/area.ts';
import { memory } from './memory/area.ts';
import { orchestrator } from './orchestrator/area.ts';
import { privacy } from './privacy/area.ts';
import { providers } from './providers/area.ts';
import { usage } from './usage/area.ts';
import { push } from './push/area.ts';
import { scaleOut } from './scale-out/area.ts';
import { sessions } from './sessions/area.ts';
import { settings } from './settings/area.ts';
import { skills } from './skills/area.ts';
import { status } from './status/area.ts';
import { tools } from './tools/area.ts';
import { VERSION } from './version.ts';
import { voice } from './voice/area.ts';
import { webClient } from './web-client/area.ts';

export type { ListeningAddress } from './lifecycle/listening-address.ts';
export type { AreaOptions, Gateway, GatewayDeps } from './gateway-contract.ts';
export { AGENT_NAME } from './status/area.ts';

/**
 * Builds the whole gateway without binding a port: a kernel (config, logger, clocks, fetch,
 * metrics), then the areas in start-up order, one line each (an area names the areas it needs,
 * which TypeScript checks come earlier), served by one HTTP server and socket router
 * (lifecycle/serve-areas.ts). Shutdown runs in reverse. No module state: build as many as you like.
 */
export function createGateway(config: HearthConfig, deps: GatewayDeps): Gateway {
  const { logger } = deps;
  // Outbound requests over node:http (it loads nothing until its first request); Node's fetch
  // takes what it does not, looked up per call: reading `globalThis.fetch` loads undici.
  const outbound = createNodeHttpFetch({
    fallback: (input, init) => globalThis.fetch(input, init),
    env: deps.processEnv ?? {},
  });
  const kernel = createKernel({
    config,
    paths: deps.paths,
    logger,
    now: deps.now ?? Date.now,
    monotonicNow: deps.monotonicNow ?? (() => performance.now()),
    fetch: deps.fetch ?? outbound.fetch,
    processEnv: deps.processEnv ?? {},
    frameLimits: deps.socketFrameLimits,
    address: () => {
      const address = served.server.address();
      return address === null || typeof address === 'string' ? null : address;
    },
  });
  const installed = installAreas(kernel, {
    ...deps.areas,
    database: { openDatabase: deps.openDatabase },
  })
    .add(providers)
    .add(settings)
    .add(privacy)
    .add(database)
    .add(usage)
    .add(sessions)
    .add(memory)
    .add(scaleOut)
    .add(approvals)
    .add(tools)
    .add(skills)
    .add(hub)
    .add(mcp)
    .add(orchestrator)
    .add(agent)
    .add(voice)
    .add(canvas)
    .add(push)
    .add(webClient)
    .add(channels)
    .add(logs)
    // A first start may pull the local model, and /ready waits for it.
    .add(localModel)
    // Last: it reports on every area before it.
    .add(status);
  const { areas, built } = installed;
  const served = serveAreas(areas, {
    gateway: config.gateway,
    version: VERSION,
    logger,
    onSocketRefused: () => kernel.metrics.wsConnectionsRefusedTotal.inc(),
  });

  let ready: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const runStartup = () => (ready ??= kernel.startup.run(installed.phases()));

  return {
    app: served.app,
    server: served.server,
    sockets: served.sockets,
    get openApi() {
      return served.openApi();
    },
    metrics: kernel.metrics,
    startup: kernel.startup,
    router: built.providers.router,
    usage: built.providers.usage,
    settings: built.settings.service,
    tools: built.tools.registry,
    approvals: built.approvals.service,
    toolRuntime: built.tools.runtime,
    pipeline: built.agent.pipeline,
    memory: built.memory.memory,
    voice: built.voice.service,
    listen: async (onBound, listenOn) => {
      const address = await served.listen(onBound, listenOn);
      runStartup().catch((error: unknown) => logger.error({ err: error }, 'start-up failed'));
      return address;
    },
    whenReady: runStartup,
    close: () => (closing ??= served.close(ready).finally(() => outbound.close())),
  };
}
