import { z } from 'zod';
import { mcpServerEntry } from '../config/schema.ts';

export const spawnResponse = z.object({
  pid: z.number().int(),
  running: z.boolean(),
  already_running: z.boolean(),
});

export const processStatusResponse = z.object({
  running: z.boolean(),
  /** 0 when no `hearth mcp` child runs. */
  pid: z.number().int(),
});

export const killResponse = z.object({ killed: z.boolean() });

/** A registry tool name (tools/registry.ts). */
export const toolNameParams = z.object({
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/, 'must be a registered tool name'),
});

/** The MCP client's name: its calls run as session `mcp:<client>`. */
export const clientName = z
  .string()
  .regex(/^[\w.@+=-]{1,64}$/, 'must be 1 to 64 letters, digits and _ . @ + = -');

export const toolCallBody = z.strictObject({
  arguments: z.record(z.string(), z.unknown()).default({}),
  client: clientName.default('client'),
});

export const toolCallResponse = z.object({ content: z.string(), is_error: z.boolean() });

/** True when `text` holds a C0 control character or DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A new `[[mcp.servers]]` entry: the config schema, and no control characters in what runs. */
export const serverBody = mcpServerEntry.refine(
  (entry) =>
    ![entry.command ?? '', entry.url ?? '', ...entry.args, ...Object.values(entry.env)].some(
      hasControl,
    ),
  { message: 'command, args, env and url must not contain control characters' },
);

export const serverNameParams = z.object({ name: z.string().min(1).max(64) });

export const serverStatus = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  enabled: z.boolean(),
  state: z.enum(['connecting', 'connected', 'restarting', 'disabled', 'failed']),
  tool_count: z.number().int(),
  tools: z.array(z.string()),
  last_error: z.string().nullable(),
  restarts: z.number().int(),
  over_limit: z.string().nullable(),
  withheld: z.array(z.object({ tool: z.string(), reason: z.string() })),
});

export const serversResponse = z.object({ servers: z.array(serverStatus) });

export const enabledBody = z.strictObject({ enabled: z.boolean() });

export const removedResponse = z.object({ removed: z.literal(true), name: z.string() });
