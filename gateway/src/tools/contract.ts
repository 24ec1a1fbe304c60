/**
 * The tool contract: what a tool is and what the registry offers. A leaf module (it imports
 * only the approvals port's types), so the agent, the tools area, skills, plugins, the hub, the
 * MCP server and channels can all depend on it without depending on each other.
 */
import type { UntrustedSource } from '../approvals/ports.ts';

export type { UntrustedSource };

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
  /**
   * The untrusted sources the calling turn's context holds so far (its provenance ledger). A
   * gated tool passes them to the gate: a command the allowlist would auto-approve is prompted.
   */
  untrustedSources?: () => readonly UntrustedSource[];
  /**
   * Adds to that ledger: a tool of Hearth's own whose result carries content of an untrusted
   * origin (`memory_search` finding a memory taken from a web page) says so here.
   */
  noteUntrusted?: (source: UntrustedSource) => void;
  /**
   * Offers these installed tools to the model from the calling turn's next step on (`find_tool`
   * naming what it found); names the registry does not hold are ignored.
   */
  offerTools?: (names: readonly string[]) => void;
}

/** `Tool.describedBy` of a tool whose description the owner wrote or approved. */
export const OWNER_DESCRIBED = 'owner';

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
  /**
   * Who wrote `description`, for a tool that is not Hearth's own (`source` 'builtin'):
   * `OWNER_DESCRIBED` for the owner's skills (written through the trusted path, or a proposal
   * the owner approved), else the third party, as a name to show (`hub package weather`). The
   * model reads the description in every turn that offers the tool, so a third party's makes
   * that turn untrusted (kind `tool_description`). Absent on a tool that is not built in: a
   * third party's, named by its source (`MCP server <name>` for `mcp:<name>`).
   */
  describedBy?: string;
  execute(context: ToolContext, args: Record<string, unknown>): Promise<string>;
}

/**
 * The registry port: register, look up and describe the tools of one gateway. One namespace:
 * a name is held by one origin (a tool's `source`), and names an origin reserved (built-ins,
 * an MCP server's `<server>__` namespace) can be registered by that origin only.
 */
export interface ToolRegistry {
  /** Throws a 409 naming the tool, its origin and the holder when the name is taken. */
  register(tool: Tool): void;
  /** Keeps `name` for tools whose `source` is `origin`; a 409 when another origin holds it. */
  reserve(name: string, origin: string): void;
  /** Keeps every name starting with `prefix` for `origin`; a 409 when another holds one. */
  reservePrefix(prefix: string, origin: string): void;
  /** Gives a prefix `origin` reserved back (an MCP server removed). */
  releasePrefix(prefix: string, origin: string): void;
  /**
   * Why a tool of `origin` could not take `name` now (the 409's message), or null. A tool
   * `origin` registered itself does not count: installing again replaces it.
   */
  conflict(name: string, origin: string): string | null;
  unregister(name: string): boolean;
  get(name: string): Tool | undefined;
  list(): Tool[];
  /** The descriptors sent to the model. */
  specs(): ToolDescriptor[];
}
