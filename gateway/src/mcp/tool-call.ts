import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Logger } from 'pino';
import { notFound, validationError } from '../errors.ts';
import type { Tool, ToolRegistry } from '../tools/ports.ts';

export interface ToolCallResult {
  content: string;
  is_error: boolean;
}

export interface ToolCallerDeps {
  tools: ToolRegistry;
  /** The text the approval gate returns for a denied call (a tool error over MCP). */
  deniedText: string;
  logger: Logger;
}

/** The session an MCP client's calls belong to: what its pending approvals show. */
export const mcpSessionId = (client: string): string => `mcp:${client}`;

/**
 * Runs a registry tool for an MCP client (`hearth mcp`'s `tools/call`): the arguments are
 * checked against the tool's JSON Schema first (422 naming the problem), then the tool runs as
 * in a chat turn, as session `mcp:<client>` — a gated tool waits for its approval decision in
 * the same gate, and a denial comes back as a tool error with the gate's text.
 */
export function createToolCaller(deps: ToolCallerDeps) {
  // ajv (and its ~130 modules) loads with the first call, not at start-up (idle memory).
  let ajv:
    | Promise<{ getValidator: (schema: Tool['parameters']) => JsonSchemaValidator<unknown> }>
    | undefined;
  const validators = new WeakMap<Tool, JsonSchemaValidator<unknown> | null>();

  async function validatorOf(tool: Tool): Promise<JsonSchemaValidator<unknown> | null> {
    let validator = validators.get(tool);
    if (validator === undefined) {
      ajv ??= import('@modelcontextprotocol/sdk/validation/ajv').then(
        ({ AjvJsonSchemaValidator }) => new AjvJsonSchemaValidator(),
      );
      try {
        validator = (await ajv).getValidator(tool.parameters);
      } catch (error) {
        // A schema ajv cannot compile is not the caller's fault: the tool checks its arguments.
        deps.logger.warn(
          { tool: tool.name, err: error instanceof Error ? error.message : String(error) },
          'tool schema not checked: ajv cannot compile it',
        );
        validator = null;
      }
      validators.set(tool, validator);
    }
    return validator;
  }

  return async function callTool(
    name: string,
    args: Record<string, unknown>,
    client: string,
  ): Promise<ToolCallResult> {
    const tool = deps.tools.get(name);
    if (!tool) throw notFound(`Unknown tool '${name}'`);
    const check = (await validatorOf(tool))?.(args);
    if (check && !check.valid) throw validationError(`arguments: ${check.errorMessage}`);
    try {
      const content = await tool.execute({ sessionId: mcpSessionId(client), channel: 'mcp' }, args);
      return { content, is_error: content === deps.deniedText };
    } catch (error) {
      return { content: error instanceof Error ? error.message : String(error), is_error: true };
    }
  };
}

export type ToolCaller = ReturnType<typeof createToolCaller>;
