import { HearthError } from '../../errors.ts';
import type { ToolSpec } from '../../providers/messages.ts';

/** What a tool knows about the turn that called it. */
export interface ToolContext {
  sessionId: string;
  channel: string;
  signal?: AbortSignal;
}

/**
 * A tool the agent can call. The registry is shared by the chat pipeline, skills, plugins, hub
 * packages and the MCP server.
 */
export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Where it comes from: 'builtin', 'skill:<name>', 'plugin:<name>', … */
  source: string;
  execute(context: ToolContext, args: Record<string, unknown>): Promise<string>;
}

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;

export function createToolRegistry() {
  const tools = new Map<string, Tool>();
  return {
    register(tool: Tool): void {
      if (!NAME.test(tool.name))
        throw new HearthError('validation', `Invalid tool name '${tool.name}'`);
      if (tools.has(tool.name))
        throw new HearthError('conflict', `A tool named '${tool.name}' is already registered`);
      tools.set(tool.name, tool);
    },
    unregister(name: string): boolean {
      return tools.delete(name);
    },
    get(name: string): Tool | undefined {
      return tools.get(name);
    },
    list(): Tool[] {
      return [...tools.values()];
    },
    /** The descriptors sent to the model. */
    specs(): ToolSpec[] {
      return [...tools.values()].map(({ name, description, parameters }) => ({
        name,
        description,
        parameters,
      }));
    },
  };
}

export type ToolRegistry = ReturnType<typeof createToolRegistry>;
