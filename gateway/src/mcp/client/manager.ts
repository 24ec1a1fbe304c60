import type { Logger } from 'pino';
import { HearthError, notFound } from '../../errors.ts';
import type { SchemaChecker, ToolRegistry } from '../../tools/ports.ts';
import type {
  ApprovalGate,
  ExternalServerStatus,
  McpServerEntry,
  McpServerStore,
} from '../ports.ts';
import type * as ConnectionModule from './connection.ts';
import type { Connection } from './connection.ts';
import { createLimitCounter, describeLimits, type McpLimits } from './limits.ts';
import { mcpOrigin, mcpPrefix } from './names.ts';
import type { ConnectionTiming } from './timing.ts';

export interface ClientManagerDeps {
  /** `[[mcp.servers]]` as loaded. */
  servers: readonly McpServerEntry[];
  store: McpServerStore;
  tools: ToolRegistry;
  gate: ApprovalGate;
  childEnv: (env: Record<string, string>) => Record<string, string>;
  timing: ConnectionTiming;
  limits: McpLimits;
  /** The schema thread: tools' schemas compiled, results checked, off the event loop. */
  checker: SchemaChecker;
  version: string;
  logger: Logger;
}

/**
 * Hearth as an MCP client: one connection per `[[mcp.servers]]` entry, and the changes of
 * `/mcp/servers` and `hearth mcp servers`, each saved to config.toml before it takes effect.
 */
export function createClientManager(deps: ClientManagerDeps) {
  const connections = new Map<string, Connection>();
  const counter = createLimitCounter();
  let closed = false;

  // The MCP SDK's client loads with the first server, not at start-up (idle memory).
  let connectionModule: Promise<typeof ConnectionModule> | undefined;
  async function open(entry: McpServerEntry): Promise<Connection> {
    const { createConnection } = await (connectionModule ??= import('./connection.ts'));
    return createConnection({
      entry,
      tools: deps.tools,
      gate: deps.gate,
      childEnv: deps.childEnv,
      timing: deps.timing,
      limits: deps.limits,
      counter,
      checker: deps.checker,
      version: deps.version,
      logger: deps.logger,
    });
  }

  const entries = (): McpServerEntry[] => [...connections.values()].map((c) => c.entry);

  function get(name: string): Connection {
    const connection = connections.get(name);
    if (!connection) throw notFound(`No MCP server named '${name}'`);
    return connection;
  }

  /** Changes are made one after another, so two never write config.toml at once. */
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(change: () => Promise<T>): Promise<T> {
    const next = queue.then(change, change);
    queue = next.catch(() => undefined);
    return next;
  }

  return {
    /** Connects every enabled server; does not wait for them (status shows progress). */
    async start(): Promise<void> {
      for (const entry of deps.servers) connections.set(entry.name, await open(entry));
      for (const connection of connections.values()) void connection.connect();
    },

    list: (): ExternalServerStatus[] => [...connections.values()].map((c) => c.status()),

    /** `/status` `backends.mcp_limits`: the caps and how often each was exceeded. */
    limits: (): string => describeLimits(deps.limits, counter, deps.checker.counts()),

    get: (name: string): ExternalServerStatus => get(name).status(),

    add: (entry: McpServerEntry): Promise<ExternalServerStatus> =>
      serial(async () => {
        if (closed) throw new HearthError('unavailable', 'The gateway is closing');
        if (connections.has(entry.name))
          throw new HearthError('conflict', `An MCP server named '${entry.name}' already exists`);
        // Its namespace first: a 409 while another origin holds a `<name>__` tool, nothing saved.
        deps.tools.reservePrefix(mcpPrefix(entry.name), mcpOrigin(entry.name));
        try {
          await deps.store.save([...entries(), entry]);
        } catch (error) {
          deps.tools.releasePrefix(mcpPrefix(entry.name), mcpOrigin(entry.name));
          throw error;
        }
        const connection = await open(entry);
        connections.set(entry.name, connection);
        void connection.connect();
        return connection.status();
      }),

    remove: (name: string): Promise<{ removed: true; name: string }> =>
      serial(async () => {
        const connection = get(name);
        await deps.store.save(entries().filter((entry) => entry.name !== name));
        connections.delete(name);
        await connection.close();
        deps.tools.releasePrefix(mcpPrefix(name), mcpOrigin(name));
        return { removed: true as const, name };
      }),

    setEnabled: (name: string, enabled: boolean): Promise<ExternalServerStatus> =>
      serial(async () => {
        const connection = get(name);
        if (connection.entry.enabled !== enabled) {
          connection.entry.enabled = enabled;
          await deps.store.save(entries());
        }
        if (enabled) void connection.setEnabled(true);
        else await connection.setEnabled(false);
        return connection.status();
      }),

    /** Disconnects every server; resolves when their processes are gone. */
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
}

export type ClientManager = ReturnType<typeof createClientManager>;
