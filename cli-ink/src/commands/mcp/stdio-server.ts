import type { ApiBody, ApiResponse } from '@hearth/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../cli-error.ts';
import { GatewayHttpError, type GatewayClient } from '../../gateway-client.ts';

type Tools = ApiResponse<'/tools'>;
type Called = ApiResponse<'/mcp/tools/{name}/call', 'POST'>;

/** How often a waiting `tools/call` reports progress (when the client asked for it). */
export const PROGRESS_INTERVAL_MS = 5_000;

/** The MCP client's name as a session suffix: `mcp:<name>` (characters the gateway accepts). */
export function clientSessionName(name: string | undefined): string {
  const safe = (name ?? '').replace(/[^\w.@+=-]/g, '-').slice(0, 64);
  return safe === '' ? 'client' : safe;
}

/**
 * Hearth's tools as an MCP server (the SDK's low-level `Server`), over the running gateway's
 * REST API: `tools/list` is `GET /tools` (every registered tool — built-ins, skills, plugins, hub
 * packages, external MCP servers' — with its JSON Schema), `tools/call` is
 * `POST /mcp/tools/{name}/call` as session `mcp:<client name>`, so a gated tool waits in the
 * gateway's approval gate exactly as in chat and a denial is a tool error (`isError`). `ping`,
 * the handshake and protocol negotiation (2024-11-05 and newer) are the SDK's own.
 */
export function createHearthMcpServer(gateway: GatewayClient, version: string): Server {
  const server = new Server(
    { name: 'hearth', version },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools of a Hearth gateway. Calls of gated tools (shell, browser, …) wait for the user to approve them.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (): Promise<ListToolsResult> => {
    const { tools } = (await gateway.getJson('/api/v1/tools')) as Tools;
    return {
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: { ...tool.parameters, type: 'object' as const },
      })),
    };
  });

  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult> => {
      const { name } = request.params;
      const token = request.params._meta?.progressToken;
      const started = Date.now();
      const progress =
        token === undefined
          ? undefined
          : setInterval(() => {
              const seconds = Math.round((Date.now() - started) / 1000);
              extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: {
                    progressToken: token,
                    progress: seconds,
                    message: `${name} still running after ${seconds} s (it may wait for approval)`,
                  },
                })
                .catch(() => undefined);
            }, PROGRESS_INTERVAL_MS);
      try {
        const result = (await gateway.sendJson(
          'POST',
          `/api/v1/mcp/tools/${encodeURIComponent(name)}/call`,
          {
            arguments: request.params.arguments ?? {},
            client: clientSessionName(server.getClientVersion()?.name),
          } satisfies ApiBody<'/mcp/tools/{name}/call', 'POST'>,
          { timeoutMs: null, signal: extra.signal },
        )) as Called;
        return { content: [{ type: 'text', text: result.content }], isError: result.is_error };
      } catch (error) {
        if (error instanceof GatewayHttpError && error.status === 404)
          throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
        if (error instanceof GatewayHttpError && error.status === 422)
          throw new McpError(
            ErrorCode.InvalidParams,
            `Invalid arguments for ${name}: ${error.detail}`,
          );
        return {
          content: [{ type: 'text', text: `Error: ${errorMessage(error)}` }],
          isError: true,
        };
      } finally {
        clearInterval(progress);
      }
    },
  );

  return server;
}
