import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { unavailable } from '../../errors.ts';
import {
  createSchemaChecker,
  type JsonSchema,
  type SchemaChecker,
  type Tool,
  type ToolRegistry,
} from '../../tools/ports.ts';
import type {
  ApprovalGate,
  ConnectionState,
  ExternalServerStatus,
  McpServerEntry,
} from '../ports.ts';
import { cappedFetch } from './capped-fetch.ts';
import { screenTools, shownDescription } from './description-guard.ts';
import { gateCommand } from './gate-command.ts';
import { CappedStdioTransport } from './stdio-transport.ts';
import {
  createLimitCounter,
  DEFAULT_LIMITS,
  toolOverLimit,
  type LimitCounter,
  type LimitName,
  type McpLimits,
  type Withheld,
} from './limits.ts';
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
  /** The caps on what the server may send and bring (`[mcp]`); the defaults when absent. */
  limits?: McpLimits;
  /** Counts the caps exceeded (shared by every server, for /status). */
  counter?: LimitCounter;
  /** Where schemas are compiled and results checked (off the event loop); one of its own else. */
  checker?: SchemaChecker;
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
 * The SDK client checks a result's `structuredContent` against the tool's `outputSchema` with
 * ajv, on the event loop, and compiles every output schema as the tools are listed: a server's
 * schema and data both, which is how a server stalls its client. It is given this validator,
 * which never compiles anything; `call` checks the result on the schema thread instead.
 */
const DEFERRED_OUTPUT_CHECK: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

/**
 * One external MCP server: connects with the SDK's client (stdio or Streamable HTTP), puts its
 * tools in the registry as `<server>__<tool>` behind the approval gate, and keeps them there
 * only while it is connected. A server that dies, floods, sends a message over the size cap or
 * does not answer in time is disconnected (its tools leave the registry), reported in
 * `last_error`, and restarted with exponential backoff. What it brings is capped (limits.ts):
 * too many tools refuse it, a tool over a description or schema cap — or whose schema cannot be
 * checked safely — is withheld. Its schemas are never compiled or run on the event loop.
 */
export function createConnection(deps: ConnectionDeps) {
  const { entry, timing } = deps;
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const counter = deps.counter ?? createLimitCounter();
  const ownChecker = deps.checker
    ? undefined
    : createSchemaChecker({ timeoutMs: limits.schema_check_timeout_ms });
  const checker = deps.checker ?? ownChecker!;
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
  /** The last cap the server went over as a whole (it was disconnected for it), or null. */
  let overLimitReason: string | null = null;
  /** Its tools not offered (over a cap, unsafe schema, instructing descriptions), and why. */
  let withheld: Withheld[] = [];
  /** Why the connection of a generation was dropped: what its pending calls are told. */
  let dropped: { gen: number; reason: string } | undefined;
  let restarts = 0;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;
  /** Bumped by every connect and every drop: callbacks of an older connection do nothing. */
  let generation = 0;

  /** The server's transport; a message over `max_message_bytes` is counted as it arrives. */
  function transportFor(gen: number): Transport {
    const onOverLimit = (detail: string) => overLimit(gen, 'max_message_bytes', detail);
    if (entry.url !== undefined)
      return new StreamableHTTPClientTransport(new URL(entry.url), {
        fetch: cappedFetch(limits.max_message_bytes, onOverLimit),
      });
    const transport = new CappedStdioTransport({
      command: entry.command ?? '',
      args: entry.args,
      env: deps.childEnv(entry.env),
      maxLineBytes: limits.max_message_bytes,
      onOverLimit,
    });
    createInterface({ input: transport.stderr, crlfDelay: Infinity }).on('line', (line) => {
      logger.info(line.slice(0, MAX_STDERR_LINE));
    });
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
      dropped = { gen, reason };
      logger.warn({ reason }, 'MCP server disconnected');
    }
    // A stdio server's stdin is closed, then it is sent SIGTERM and SIGKILL if it lingers.
    const closing = current?.close().catch(() => undefined) ?? Promise.resolve();
    if (restart && enabled) scheduleRestart();
    return closing;
  }

  /**
   * The server went over a cap as a whole: disconnected at once (the transports have stopped
   * reading it already), counted, and reported. While it connects it is refused (state
   * `failed`, no restart: it would do the same again); answering a call, it is restarted with
   * backoff.
   */
  function overLimit(gen: number, limit: LimitName, detail: string): void {
    if (gen !== generation) return;
    counter.hit(limit);
    overLimitReason = `${limit}: ${detail}`;
    const wasConnected = client !== undefined;
    void drop(gen, `over limit: ${detail} (mcp.${limit})`, wasConnected);
    if (!wasConnected) state = 'failed';
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
        return call(gen, tool, args, context.signal);
      },
    };
  }

  async function call(
    gen: number,
    tool: McpTool,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const current = client;
    if (!current || gen !== generation)
      throw unavailable(`MCP server ${entry.name} is not connected`);
    let result: CallToolResult;
    try {
      result = (await current.callTool({ name: tool.name, arguments: args }, undefined, {
        timeout: timing.callTimeoutMs,
        signal,
      })) as CallToolResult;
    } catch (error) {
      if (error instanceof McpError && error.code === REQUEST_TIMEOUT) {
        void drop(
          gen,
          `timed out: ${tool.name} got no answer within ${timing.callTimeoutMs} ms`,
          true,
        );
      } else if (!(error instanceof McpError) || error.code === CONNECTION_CLOSED) {
        void drop(gen, messageOf(error), true);
      }
      // A connection dropped under the call (over a cap, say) is why the call failed.
      const why = dropped?.gen === gen ? dropped.reason : messageOf(error);
      throw new Error(`MCP server ${entry.name}: ${why}`, { cause: error });
    }
    // The pipeline and the MCP server mark a thrown error as a tool error.
    if (result.isError === true) throw new Error(resultText(result) || `${tool.name} failed`);
    if (tool.outputSchema !== undefined && result.structuredContent !== undefined)
      await checkOutput(tool, result.structuredContent);
    return resultText(result);
  }

  /** A result's structured content against the tool's output schema, on the schema thread. */
  async function checkOutput(tool: McpTool, content: Record<string, unknown>): Promise<void> {
    const verdict = await checker.validate(tool.outputSchema as JsonSchema, content);
    if (verdict.kind === 'invalid')
      throw new Error(
        `MCP server ${entry.name}: the result of ${tool.name} does not match its output schema: ${verdict.message}`,
      );
    if (verdict.kind === 'refused')
      throw new Error(
        `MCP server ${entry.name}: the result of ${tool.name} was not checked against its output schema, so it is withheld: ${verdict.message}`,
      );
  }

  /**
   * The server's tools the registry would take, page by page (only those are kept); a string
   * saying so when there are more than `max_tools_per_server`.
   */
  async function listTools(current: Client): Promise<McpTool[] | string> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const result = await current.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: timing.connectTimeoutMs,
      });
      tools.push(...wanted(result.tools));
      if (tools.length > limits.max_tools_per_server)
        return `it offers more than ${limits.max_tools_per_server} tools${entry.tools === undefined ? '' : ' of its allow-list'}`;
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /**
   * The tools within the caps whose schemas can be checked safely: each schema is compiled on the
   * schema thread (so the first call does not wait for it) and one with a pattern no linear-time
   * engine runs, or that takes too long, keeps its tool out.
   */
  async function screenSchemas(tools: McpTool[]): Promise<{ kept: McpTool[]; out: Withheld[] }> {
    const kept: McpTool[] = [];
    const out: Withheld[] = [];
    for (const tool of tools) {
      const over = toolOverLimit(tool, limits);
      if (over !== null) {
        counter.hit(over.limit);
        out.push({ tool: tool.name, ...over });
        continue;
      }
      let refusal: string | null = null;
      for (const [what, schema] of [
        ['input schema', tool.inputSchema],
        ['output schema', tool.outputSchema],
      ] as const) {
        if (schema === undefined || refusal !== null) continue;
        const verdict = await checker.prepare(schema);
        if (verdict.kind === 'refused') refusal = `its ${what}: ${verdict.message}`;
        if (verdict.kind === 'unchecked')
          logger.warn({ tool: tool.name, why: verdict.message }, `MCP tool ${what} not checked`);
      }
      if (refusal === null) kept.push(tool);
      else out.push({ tool: tool.name, reason: refusal });
    }
    return { kept, out };
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
    withheld = [];
    const current = new Client(
      { name: 'hearth', version: deps.version },
      { capabilities: {}, jsonSchemaValidator: DEFERRED_OUTPUT_CHECK },
    );
    live = current;
    const transport = new GuardedTransport(transportFor(gen), timing.guard, (reason) => {
      void drop(gen, reason, true);
    });
    current.onclose = () => void drop(gen, 'the server closed the connection', true);
    current.onerror = (error) => {
      logger.debug({ err: messageOf(error) }, 'MCP server sent something unreadable');
    };
    try {
      await current.connect(transport, { timeout: timing.connectTimeoutMs });
      const listed = await listTools(current);
      if (gen !== generation) {
        await current.close();
        return;
      }
      if (typeof listed === 'string') {
        overLimit(gen, 'max_tools_per_server', listed);
        return;
      }
      const taken = collision(listed);
      if (taken !== null) {
        // Not connected at all: none of its tools, and no restart until it is enabled again.
        await drop(gen, `refused: ${taken}`, false);
        state = 'failed';
        return;
      }
      const safe = await screenSchemas(listed);
      if (gen !== generation) {
        await current.close();
        return;
      }
      client = current;
      // A description that instructs the model (or hides text) keeps its tool out, and says so.
      const screened = screenTools(safe.kept);
      register(screened.kept, gen);
      withheld = [...safe.out, ...screened.withheld];
      if (withheld.length > 0) {
        lastError =
          `tools not exposed: ${withheld.map((w) => `${w.tool} (${w.reason})`).join('; ')}`.slice(
            0,
            2_000,
          );
        logger.warn({ withheld }, 'MCP tools withheld');
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
        over_limit: overLimitReason,
        withheld: withheld.map(({ tool, reason }) => ({ tool, reason })),
      };
    },

    /** Disconnects for good (removed, or the gateway closes). */
    async close(): Promise<void> {
      enabled = false;
      clearTimeout(retry);
      state = 'disabled';
      await drop(generation, null, false);
      await ownChecker?.close();
    },
  };
}

export type Connection = ReturnType<typeof createConnection>;
