/**
 * The caps on what an external MCP server may make the gateway hold, send to the model or list
 * (`[mcp]` in config.toml), and the count of each one's being exceeded.
 *
 * - Over `max_tools_per_server`: the server is refused (state `failed`, not restarted until it is
 *   enabled again): which of its tools to keep is not the gateway's guess to make, and the
 *   `tools` allow-list is the owner's way to take fewer.
 * - Over `max_message_bytes` (a stdio line, an HTTP answer, one SSE event, counted as the bytes
 *   arrive): the server is disconnected at once; refused while it connects, restarted with
 *   backoff when it happens answering a call.
 * - A tool over `max_description_chars`, `max_schema_bytes` or `max_schema_depth`, or whose
 *   schema cannot be checked safely: that tool is withheld and the others are offered, like a
 *   tool whose description instructs the model — one oversized tool says nothing about the rest,
 *   and what is withheld is held nowhere.
 */
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { HearthConfig } from '../../config/schema.ts';
import type { SchemaCheckCounts } from '../../tools/ports.ts';

export type McpLimits = Pick<
  HearthConfig['mcp'],
  | 'max_tools_per_server'
  | 'max_description_chars'
  | 'max_schema_bytes'
  | 'max_schema_depth'
  | 'max_message_bytes'
  | 'schema_check_timeout_ms'
>;

export type LimitName = keyof McpLimits;

export const DEFAULT_LIMITS: McpLimits = {
  max_tools_per_server: 128,
  max_description_chars: 8_192,
  max_schema_bytes: 16_384,
  max_schema_depth: 32,
  max_message_bytes: 4_194_304,
  schema_check_timeout_ms: 2_000,
};

/** How often each cap was exceeded since the gateway started (all servers together). */
export function createLimitCounter() {
  const counts = new Map<LimitName, number>();
  return {
    hit(limit: LimitName): void {
      counts.set(limit, (counts.get(limit) ?? 0) + 1);
    },
    counts: (): Partial<Record<LimitName, number>> => Object.fromEntries(counts),
  };
}

export type LimitCounter = ReturnType<typeof createLimitCounter>;

/** `/status` `backends.mcp_limits`: the caps, and how often each was exceeded. */
export function describeLimits(
  limits: McpLimits,
  counter: LimitCounter,
  checks: SchemaCheckCounts,
): string {
  const caps =
    `${limits.max_tools_per_server} tools per server, descriptions ${limits.max_description_chars} ` +
    `characters, schemas ${limits.max_schema_bytes} bytes and ${limits.max_schema_depth} levels, ` +
    `messages ${limits.max_message_bytes} bytes, schema checks ${limits.schema_check_timeout_ms} ms`;
  const counts: Partial<Record<LimitName, number>> = { ...counter.counts() };
  if (checks.timed_out > 0)
    counts.schema_check_timeout_ms = (counts.schema_check_timeout_ms ?? 0) + checks.timed_out;
  const exceeded = Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([limit, count]) => `${limit} ${count}`);
  return `${caps}; exceeded: ${exceeded.length === 0 ? 'none' : exceeded.join(', ')}`;
}

/** A tool not offered, and why. */
export interface Withheld {
  tool: string;
  reason: string;
  /** The cap it went over, when that is why. */
  limit?: LimitName;
}

/** The nesting depth of `value` (a scalar is 0), walked without recursion; stops past `max`. */
export function depthOf(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const inner = depth + 1;
    deepest = Math.max(deepest, inner);
    if (deepest > max) return deepest;
    for (const child of Object.values(node)) stack.push([child, inner]);
  }
  return deepest;
}

/** Why `schema` is over a cap, or null. */
function schemaProblem(
  what: string,
  schema: unknown,
  limits: McpLimits,
): { reason: string; limit: LimitName } | null {
  const depth = depthOf(schema, limits.max_schema_depth);
  if (depth > limits.max_schema_depth)
    return {
      reason: `its ${what} is nested more than ${limits.max_schema_depth} levels deep (mcp.max_schema_depth)`,
      limit: 'max_schema_depth',
    };
  const bytes = Buffer.byteLength(JSON.stringify(schema) ?? '');
  if (bytes > limits.max_schema_bytes)
    return {
      reason: `its ${what} is ${bytes} bytes, over ${limits.max_schema_bytes} (mcp.max_schema_bytes)`,
      limit: 'max_schema_bytes',
    };
  return null;
}

/** Why the tool is over a cap, or null: its descriptions first, then its schemas. */
export function toolOverLimit(
  tool: McpTool,
  limits: McpLimits,
): { reason: string; limit: LimitName } | null {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  const parameterTexts =
    properties !== null && typeof properties === 'object'
      ? Object.values(properties).map(
          (schema) => (schema as { description?: unknown } | null)?.description,
        )
      : [];
  for (const text of [tool.description, tool.title, ...parameterTexts]) {
    if (typeof text === 'string' && text.length > limits.max_description_chars)
      return {
        reason: `its description is ${text.length} characters, over ${limits.max_description_chars} (mcp.max_description_chars)`,
        limit: 'max_description_chars',
      };
  }
  return (
    schemaProblem('input schema', tool.inputSchema, limits) ??
    (tool.outputSchema === undefined
      ? null
      : schemaProblem('output schema', tool.outputSchema, limits))
  );
}
