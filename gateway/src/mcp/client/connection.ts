import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { unavailable } from '../../errors.ts';
import type { Tool, ToolRegistry } from '../../tools/ports.ts';
import type {
  ApprovalGate,
  ConnectionState,
  ExternalServerStatus,
  McpServerEntry,
} from '../ports.ts';
import { screenTools, shownDescription } from './description-guard.ts';
import { gateCommand } from './gate-command.ts';
import { GuardedTransport } from './message-guard.ts';
import { mcpOrigin, mcpPrefix } from './names.ts';
import type { ConnectionTiming } from './timing.ts';
import { resultText } from './tool-result.ts';

export interface ConnectionDeps {
  entry: McpServerEntry;
  tools: ToolRegistry;
  gate: ApprovalGate;
  /** The stdio server's environment: the entry's `env` through the shared sanitiser. */
  childEnv: (env: Record<string, string>) => Record<string, string>;
  timing: ConnectionTiming;
  version: string;
  logger: Logger;
}

/** The registry's rule for a tool name (tools/registry.ts). */
const REGISTRY_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
const MAX_TOOL_PAGES = 20;
const MAX_STDERR_LINE = 2_000;
const REQUEST_TIMEOUT: number = ErrorCode.RequestTimeout;
const CONNECTION_CLOSED: number = ErrorCode.ConnectionClosed;

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * One external MCP server: connects with the SDK's client (stdio or Streamable HTTP), puts its
 * tools in the registry as `<server>__<tool>` behind the approval gate, and keeps them there
 * only while it is connected. A server that dies, floods, sends oversized lines or does not
 * answer in time is disconnected (its tools leave the registry), reported in `last_error`, and
 * restarted with exponential backoff.
 */
export function createConnection(deps: ConnectionDeps) {
  const { entry, timing } = deps;
  const logger = deps.logger.child({ area: 'mcp-client', server: entry.name });
  const origin = mcpOrigin(entry.name);
  let enabled = entry.enabled;
  let state: ConnectionState = enabled ? 'connecting' : 'disabled';
  /** This generation's client once connected (its tools are registered). */
  let client: Client | undefined;
  /** This generation's client from the moment it starts connecting. */
  let live: Client | undefined;
  let registered: string[] = [];
  let lastError: string | null = null;
  let restarts = 0;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  /** Bumped by every connect and every drop: callbacks of an older connection do nothing. */
  let generation = 0;

  function transportFor(): Transport {
    if (entry.url !== undefined) return new StreamableHTTPClientTransport(new URL(entry.url));
    const transport = new StdioClientTransport({
      command: entry.command ?? '',
      args: entry.args,
      env: deps.childEnv(entry.env),
      stderr: 'pipe',
      maxBufferSize: timing.maxMessageBytes,
    });
    const stderr = transport.stderr;
    if (stderr) {
      createInterface({ input: stderr as Readable, crlfDelay: Infinity }).on('line', (line) => {
        logger.info(line.slice(0, MAX_STDERR_LINE));
      });
    }
    return transport;
  }

  function unregister(): void {
    for (const name of registered) deps.tools.unregister(name);
    registered = [];
  }

  /**
   * Disconnects the current connection; restarts it with backoff when `restart`. `reason` becomes
   * the last error (null keeps the one there is: a deliberate stop is no error).
   */
  function drop(gen: number, reason: string | null, restart: boolean): Promise<void> {
    if (gen !== generation) return Promise.resolve();
    generation += 1;
    const current = live;
    live = undefined;
    client = undefined;
    unregister();
    if (reason !== null) {
      lastError = reason;
      logger.warn({ reason }, 'MCP server disconnected');
    }
    // A stdio server's stdin is closed, then it is sent SIGTERM and SIGKILL if it lingers.
    const closing = current?.close().catch(() => undefined) ?? Promise.resolve();
    if (restart && enabled) scheduleRestart();
    return closing;
  }

  function scheduleRestart(): void {
    state = 'restarting';
    const delay = Math.min(timing.backoffMaxMs, timing.backoffInitialMs * 2 ** attempt);
    attempt += 1;
    clearTimeout(retry);
    retry = setTimeout(() => {
      restarts += 1;
      void connect();
    }, delay);
    retry.unref();
  }

  function toolFor(tool: McpTool, gen: number): Tool {
    const name = `${mcpPrefix(entry.name)}${tool.name}`;
    return {
      name,
      description: shownDescription(
        tool.description ?? tool.title ?? `${tool.name} (MCP server ${entry.name})`,
      ),
      parameters: tool.inputSchema,
      source: mcpOrigin(entry.name),
      async execute(context, args) {
        const command = gateCommand(entry.name, tool.name, args);
        const decision = await deps.gate({
          toolName: name,
          command,
          arguments: { command, timeout: 0, workdir: '' },
          sessionId: context.sessionId,
          untrustedSources: context.untrustedSources?.(),
        });
        if (!decision.allowed) return decision.message;
        return call(gen, tool.name, args, context.signal);
      },
    };
  }

  async function call(
    gen: number,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const current = client;
    if (!current || gen !== generation)
      throw unavailable(`MCP server ${entry.name} is not connected`);
    let result: CallToolResult;
    try {
      result = (await current.callTool({ name: tool, arguments: args }, undefined, {
        timeout: timing.callTimeoutMs,
        signal,
      })) as CallToolResult;
    } catch (error) {
      if (error instanceof McpError && error.code === REQUEST_TIMEOUT) {
        void drop(gen, `timed out: ${tool} got no answer within ${timing.callTimeoutMs} ms`, true);
      } else if (!(error instanceof McpError) || error.code === CONNECTION_CLOSED) {
        void drop(gen, messageOf(error), true);
      }
      throw new Error(`MCP server ${entry.name}: ${messageOf(error)}`, { cause: error });
    }
    const text = resultText(result);
    // The pipeline and the MCP server mark a thrown error as a tool error.
    if (result.isError === true) throw new Error(text || `${tool} failed`);
    return text;
  }

  async function listTools(current: Client): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const result = await current.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: timing.connectTimeoutMs,
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** The server's tools the registry would take (allowed, well named). */
  function wanted(tools: McpTool[]): McpTool[] {
    const allowed = entry.tools === undefined ? undefined : new Set(entry.tools);
    return tools.filter((tool) => {
      if (allowed && !allowed.has(tool.name)) return false;
      if (REGISTRY_NAME.test(`${mcpPrefix(entry.name)}${tool.name}`)) return true;
      logger.warn({ tool: tool.name }, 'MCP tool skipped: its name does not fit the registry');
      return false;
    });
  }

  /** The first of the server's tools another origin holds, or null. */
  function collision(tools: McpTool[]): string | null {
    for (const tool of tools) {
      const problem = deps.tools.conflict(`${mcpPrefix(entry.name)}${tool.name}`, origin);
      if (problem !== null) return problem;
    }
    return null;
  }

  function register(tools: McpTool[], gen: number): void {
    for (const tool of tools) {
      const name = `${mcpPrefix(entry.name)}${tool.name}`;
      try {
        deps.tools.register(toolFor(tool, gen));
        registered.push(name);
      } catch (error) {
        logger.warn({ tool: tool.name, err: messageOf(error) }, 'MCP tool skipped');
      }
    }
  }

  async function connect(): Promise<void> {
    if (!enabled) return;
    generation += 1;
    const gen = generation;
    state = attempt === 0 ? 'connecting' : 'restarting';
    const current = new Client({ name: 'hearth', version: deps.version }, { capabilities: {} });
    live = current;
    const transport = new GuardedTransport(transportFor(), timing.guard, (reason) => {
      void drop(gen, reason, true);
    });
    current.onclose = () => void drop(gen, 'the server closed the connection', true);
    current.onerror = (error) => {
      logger.debug({ err: messageOf(error) }, 'MCP server sent something unreadable');
    };
    try {
      await current.connect(transport, { timeout: timing.connectTimeoutMs });
      const tools = await listTools(current);
      if (gen !== generation) {
        await current.close();
        return;
      }
      const kept = wanted(tools);
      const taken = collision(kept);
      if (taken !== null) {
        // Not connected at all: none of its tools, and no restart until it is enabled again.
        await drop(gen, `refused: ${taken}`, false);
        state = 'failed';
        return;
      }
      client = current;
      // A description that instructs the model (or hides text) keeps its tool out, and says so.
      const screened = screenTools(kept);
      register(screened.kept, gen);
      if (screened.withheld.length > 0) {
        lastError = `tools not exposed: ${screened.withheld.join('; ')}`.slice(0, 2_000);
        logger.warn(
          { withheld: screened.withheld },
          'MCP tools withheld: their descriptions instruct the model',
        );
      }
      state = 'connected';
      attempt = 0;
      logger.info({ tools: registered.length }, 'MCP server connected');
    } catch (error) {
      if (gen !== generation) return;
      await drop(gen, `could not connect: ${messageOf(error)}`, true);
    }
  }

  return {
    name: entry.name,
    entry,
    connect,

    async setEnabled(next: boolean): Promise<void> {
      enabled = next;
      if (next) {
        if (state === 'disabled' || state === 'failed') {
          attempt = 0;
          await connect();
        }
        return;
      }
      clearTimeout(retry);
      state = 'disabled';
      await drop(generation, null, false);
    },

    status(): ExternalServerStatus {
      return {
        name: entry.name,
        transport: entry.url === undefined ? 'stdio' : 'http',
        enabled,
        state,
        tool_count: registered.length,
        tools: [...registered],
        last_error: lastError,
        restarts,
      };
    },

    /** Disconnects for good (removed, or the gateway closes). */
    async close(): Promise<void> {
      enabled = false;
      clearTimeout(retry);
      state = 'disabled';
      await drop(generation, null, false);
    },
  };
}

export type Connection = ReturnType<typeof createConnection>;
