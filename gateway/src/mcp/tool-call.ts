import type { Logger } from 'pino';
import { notFound, validationError } from '../errors.ts';
import type { SchemaChecker, Tool, ToolRegistry } from '../tools/ports.ts';

export interface ToolCallResult {
  content: string;
  is_error: boolean;
}

export interface ToolCallerDeps {
  tools: ToolRegistry;
  /** The text the approval gate returns for a denied call (a tool error over MCP). */
  deniedText: string;
  /** Where arguments are checked against the tool's schema: a worker thread, under a deadline. */
  checker: SchemaChecker;
  logger: Logger;
}

/** The session an MCP client's calls belong to: what its pending approvals show. */
export const mcpSessionId = (client: string): string => `mcp:${client}`;

/**
 * Runs a registry tool for an MCP client (`hearth mcp`'s `tools/call`): the arguments are
 * checked against the tool's JSON Schema first (422 naming the problem), then the tool runs as
 * in a chat turn, as session `mcp:<client>` — a gated tool waits for its approval decision in
 * the same gate, and a denial comes back as a tool error with the gate's text.
 *
 * A tool's schema may be a third party's (an external MCP server's, a hub package's), so the
 * check runs on the schema thread, never on the event loop: patterns on RE2, `uniqueItems`
 * hashed, each check cut at `mcp.schema_check_timeout_ms`. A call whose arguments could not be
 * checked safely (a pattern no linear-time engine runs, a check over the deadline) is refused
 * with a 422 saying why; one whose schema ajv cannot compile for a harmless reason runs
 * unchecked, as before (the tool checks its own arguments).
 */
export function createToolCaller(deps: ToolCallerDeps) {
  /** Tools whose schema was reported uncompilable (said once per tool). */
  const unchecked = new WeakSet<Tool>();

  return async function callTool(
    name: string,
    args: Record<string, unknown>,
    client: string,
  ): Promise<ToolCallResult> {
    const tool = deps.tools.get(name);
    if (!tool) throw notFound(`Unknown tool '${name}'`);
    const verdict = await deps.checker.validate(tool.parameters, args);
    if (verdict.kind === 'invalid') throw validationError(`arguments: ${verdict.message}`);
    if (verdict.kind === 'refused')
      throw validationError(
        `arguments not checked, so '${name}' was not called: ${verdict.message}`,
      );
    if (verdict.kind === 'unchecked' && !unchecked.has(tool)) {
      unchecked.add(tool);
      deps.logger.warn({ tool: name, err: verdict.message }, 'tool schema not checked');
    }
    try {
      const content = await tool.execute({ sessionId: mcpSessionId(client), channel: 'mcp' }, args);
      return { content, is_error: content === deps.deniedText };
    } catch (error) {
      return { content: error instanceof Error ? error.message : String(error), is_error: true };
    }
  };
}

export type ToolCaller = ReturnType<typeof createToolCaller>;
