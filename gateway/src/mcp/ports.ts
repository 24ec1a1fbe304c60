/**
 * The MCP area's ports: what it takes from the approvals and tools areas, and what it reports.
 * Types only.
 */
import type { GateDecision, GateRequest } from '../approvals/ports.ts';
import type { McpServerEntry } from '../config/schema.ts';

export type { GateDecision, GateRequest, McpServerEntry };

/** The one approval gate of the gateway (the approvals area's). */
export type ApprovalGate = (request: GateRequest) => Promise<GateDecision>;

/** The `hearth mcp` process the gateway spawns (spec: States "MCP server process"). */
export interface ServerProcessStatus {
  running: boolean;
  /** The child's pid; 0 when none runs. */
  pid: number;
}

/** How the gateway starts `hearth mcp`: a program and its arguments (no shell). */
export interface McpServerCommand {
  command: string;
  args: readonly string[];
}

export type ConnectionState = 'connecting' | 'connected' | 'restarting' | 'disabled' | 'failed';

/** One external server as `/mcp/servers` and `/status` show it. */
export interface ExternalServerStatus {
  name: string;
  transport: 'stdio' | 'http';
  enabled: boolean;
  state: ConnectionState;
  /** Tools of this server in the registry now. */
  tool_count: number;
  tools: string[];
  last_error: string | null;
  /** Restarts since the gateway started (a dead server is restarted with backoff). */
  restarts: number;
  /**
   * The last `[mcp]` cap the server went over as a whole and how (`max_tools_per_server: it
   * offers more than 128 tools`); it was disconnected for it. Null when it never did.
   */
  over_limit: string | null;
  /** Its tools not offered, and why (over a cap, a schema unsafe to check, a description). */
  withheld: { tool: string; reason: string }[];
}

/** Where `[[mcp.servers]]` is kept: config.toml, through the atomic comment-preserving writer. */
export interface McpServerStore {
  save(servers: readonly McpServerEntry[]): Promise<void>;
}
