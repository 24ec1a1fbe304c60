/** Helpers for the MCP tests: the fixture server's entry, polling the gateway, REST calls. */
import { fileURLToPath } from 'node:url';
import type { McpServerEntry } from '../../config/schema.ts';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import type { ExternalServerStatus } from '../ports.ts';

export const FIXTURE_STDIO_SERVER = fileURLToPath(
  new URL('./fixture-stdio-server.ts', import.meta.url),
);

/** The CLI's entry point in the sources: `node <this> mcp` is `hearth mcp`. */
export const CLI_SOURCE = fileURLToPath(
  new URL('../../../../cli-ink/src/main.ts', import.meta.url),
);

/**
 * Short backoff, so restarts happen within a test; timeouts generous enough for a loaded
 * machine (a Node child can take seconds to start there).
 */
export const FAST_TIMING = {
  connectTimeoutMs: 60_000,
  callTimeoutMs: 8_000,
  backoffInitialMs: 100,
  backoffMaxMs: 1_000,
  guard: { maxEvents: 500, windowMs: 1_000 },
};

export function stdioEntry(name: string, extra: Partial<McpServerEntry> = {}): McpServerEntry {
  return {
    name,
    command: process.execPath,
    args: [FIXTURE_STDIO_SERVER],
    env: {},
    enabled: true,
    ...extra,
  };
}

export function httpEntry(name: string, url: string, extra: Partial<McpServerEntry> = {}) {
  return { name, url, args: [], env: {}, enabled: true, ...extra } satisfies McpServerEntry;
}

/** A JSON request to the bed's gateway. */
export async function send(
  bed: ChatTestBed,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function serverStatus(bed: ChatTestBed, name: string): Promise<ExternalServerStatus> {
  return (await send(bed, 'GET', `/mcp/servers/${name}`)).body as unknown as ExternalServerStatus;
}

/** Polls until `check` holds (or fails the test after `timeoutMs`). */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the server is connected with its tools in the registry. */
export const connected = (bed: ChatTestBed, name: string) =>
  until(
    `${name} connected`,
    () => serverStatus(bed, name),
    (s) => s.state === 'connected' && s.tool_count > 0,
  );

/** Tool names the gateway lists. */
export async function toolNames(bed: ChatTestBed): Promise<string[]> {
  const { tools } = (await send(bed, 'GET', '/tools')).body as { tools: { name: string }[] };
  return tools.map((tool) => tool.name);
}

/** Calls a registry tool through the REST route `hearth mcp` uses. */
export async function callTool(bed: ChatTestBed, name: string, args: Record<string, unknown> = {}) {
  return send(bed, 'POST', `/mcp/tools/${name}/call`, { arguments: args, client: 'test' });
}
