/**
 * The tool contract: what a tool is and what the registry offers. A leaf module (it imports
 * nothing of Hearth's), so the agent, the tools area, skills, plugins, the hub, the MCP server
 * and channels can all depend on it without depending on each other.
 */

/** What a tool knows about the turn that called it. */
export interface ToolContext {
  sessionId: string;
  channel: string;
  signal?: AbortSignal;
  /**
   * Who asks on the model's behalf, when not the model itself (`skill weather`): approval
   * notices and the pending record name it.
   */
  requester?: string;
}

/** A tool as the model sees it: name, description and the JSON Schema of its arguments. */
export interface ToolDescriptor {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/**
 * A tool the agent can call. The registry is shared by the chat pipeline, skills, plugins, hub
 * packages and the MCP server.
 */
export interface Tool extends ToolDescriptor {
  /** Where it comes from: 'builtin', 'skill:<name>', 'plugin:<name>', … */
  source: string;
  execute(context: ToolContext, args: Record<string, unknown>): Promise<string>;
}

/** The registry port: register, look up and describe the tools of one gateway. */
export interface ToolRegistry {
  register(tool: Tool): void;
  unregister(name: string): boolean;
  get(name: string): Tool | undefined;
  list(): Tool[];
  /** The descriptors sent to the model. */
  specs(): ToolDescriptor[];
}
