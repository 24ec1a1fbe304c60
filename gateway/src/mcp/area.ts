import type { Logger } from 'pino';
import type { Area } from '../lifecycle/area.ts';
import { late } from '../lifecycle/late.ts';
import { createSchemaChecker, type ToolRegistry } from '../tools/ports.ts';
import { configServerStore, type UpdateConfig } from './client/config-store.ts';
import type { McpLimits } from './client/limits.ts';
import { mcpOrigin, mcpPrefix } from './client/names.ts';
import { DEFAULT_TIMING, type ConnectionTiming } from './client/timing.ts';
import { createClientManager, type ClientManager } from './client/manager.ts';
import type {
  ApprovalGate,
  ExternalServerStatus,
  McpServerCommand,
  McpServerEntry,
} from './ports.ts';
import { mcpRoutes } from './routes.ts';
import { createServerProcess } from './server-process.ts';
import { createToolCaller } from './tool-call.ts';
import { updateConfigFile } from '../config/write.ts';
import { defineArea } from '../lifecycle/install.ts';
import { VERSION } from '../version.ts';

export interface McpAreaDeps {
  /** `[[mcp.servers]]` as loaded from config.toml. */
  servers: readonly McpServerEntry[];
  tools: ToolRegistry;
  /** The gateway's one approval gate. */
  gate: ApprovalGate;
  /** The gate's text for a denied call. */
  deniedText: string;
  /** An external stdio server's environment: its entry's `env` through the shared sanitiser. */
  childEnv: (env: Record<string, string>) => Record<string, string>;
  /** How to start `hearth mcp` for `/mcp/spawn`; undefined when not known. */
  serverCommand: McpServerCommand | undefined;
  /** The spawned `hearth mcp`'s environment: sanitised, plus the gateway's URL and key. */
  serverEnv: () => Record<string, string>;
  /** Writes a section of config.toml (atomic, comments kept). */
  updateConfig: UpdateConfig;
  timing?: Partial<ConnectionTiming>;
  /** The caps on external servers and the schema checks (`[mcp]`). */
  limits: McpLimits;
  version: string;
  logger: Logger;
}

export interface McpArea extends Area {
  readonly clients: () => ClientManager;
}

function describe(server: ExternalServerStatus): string {
  const tools = `${server.tool_count} ${server.tool_count === 1 ? 'tool' : 'tools'}`;
  const error = server.last_error === null ? '' : `; last error: ${server.last_error}`;
  const over = server.over_limit === null ? '' : `; over limit: ${server.over_limit}`;
  const withheld = server.withheld.length === 0 ? '' : `; ${server.withheld.length} withheld`;
  return `${server.state}, ${tools}${error}${over}${withheld}`;
}

/**
 * MCP both ways. As a server: `/mcp/spawn|status|server` manage the `hearth mcp` child, and
 * `/mcp/tools/{name}/call` is what every `hearth mcp` calls tools through (the registry and the
 * approval gate of this gateway, nothing built twice). As a client: the `[[mcp.servers]]`
 * connections, whose tools join the registry behind the gate, managed at `/mcp/servers`.
 */
export function mcpArea(deps: McpAreaDeps): McpArea {
  const logger = deps.logger.child({ area: 'mcp' });
  // Each configured server's namespace, before any area loads a tool (whatever the order).
  for (const server of deps.servers)
    deps.tools.reservePrefix(mcpPrefix(server.name), mcpOrigin(server.name));
  const clients = late<ClientManager>({ name: 'External MCP servers', plural: true });
  const process = createServerProcess({
    command: deps.serverCommand,
    env: deps.serverEnv,
    logger,
  });
  // Tools' schemas are compiled and arguments and results checked there, off the event loop.
  const checker = createSchemaChecker({
    timeoutMs: deps.limits.schema_check_timeout_ms,
    timeoutSetting: 'mcp.schema_check_timeout_ms',
  });
  const callTool = createToolCaller({
    tools: deps.tools,
    deniedText: deps.deniedText,
    checker,
    logger,
  });

  return {
    name: 'mcp',
    routes: mcpRoutes({ process, callTool, clients: clients.get }),
    async start() {
      const manager = createClientManager({
        servers: deps.servers,
        store: configServerStore(deps.updateConfig),
        tools: deps.tools,
        gate: deps.gate,
        childEnv: deps.childEnv,
        timing: { ...DEFAULT_TIMING, ...deps.timing },
        limits: deps.limits,
        checker,
        version: deps.version,
        logger,
      });
      clients.set(manager);
      await manager.start();
    },
    status(): Record<string, string> {
      const child = process.status();
      const backends: Record<string, string> = {
        mcp_server: child.running ? `running (pid ${child.pid})` : 'stopped',
      };
      const manager = clients.peek();
      if (manager) backends.mcp_limits = manager.limits();
      for (const server of manager?.list() ?? []) backends[`mcp:${server.name}`] = describe(server);
      return backends;
    },
    clients: clients.get,
    async close() {
      await clients.peek()?.close();
      await process.close();
      await checker.close();
    },
  };
}

/** The MCP area's options. */
export interface McpOptions {
  /** How `POST /mcp/spawn` starts `hearth mcp` (the CLI passes itself); unset: spawn answers 503. */
  serverCommand?: McpServerCommand;
  /** External MCP servers' timeouts, backoff and flood limits (tests shorten them). */
  timing?: Partial<ConnectionTiming>;
}

export interface McpNeeds {
  tools: { registry: ToolRegistry };
  approvals: { gate: ApprovalGate; deniedText: string };
}

export const mcp = defineArea('mcp', (kernel, needs: McpNeeds, options: McpOptions | undefined) => {
  const { config } = kernel;
  return mcpArea({
    servers: config.mcp.servers,
    tools: needs.tools.registry,
    gate: needs.approvals.gate,
    deniedText: needs.approvals.deniedText,
    // The entry's env only, through the shared sanitiser: no provider key or configured secret.
    childEnv: (env) => kernel.childEnv(env),
    serverCommand: options?.serverCommand,
    // The spawned `hearth mcp` gets this gateway's URL and key, and nothing else secret.
    serverEnv: () => ({
      ...kernel.childEnv(),
      HEARTH_GATEWAY_URL: kernel.localUrl(),
      ...(config.gateway.api_key === '' ? {} : { HEARTH_API_KEY: config.gateway.api_key }),
    }),
    updateConfig: (section, values) => updateConfigFile(kernel.paths.configPath, section, values),
    timing: options?.timing,
    limits: config.mcp,
    version: VERSION,
    logger: kernel.logger,
  });
});
