import { defineRoute, type AnyRoute } from '../http/route.ts';
import type { ClientManager } from './client/manager.ts';
import {
  enabledBody,
  killResponse,
  processStatusResponse,
  removedResponse,
  serverBody,
  serverNameParams,
  serverStatus,
  serversResponse,
  spawnResponse,
  toolCallBody,
  toolCallResponse,
  toolNameParams,
} from './schemas.ts';
import type { ServerProcess } from './server-process.ts';
import type { ToolCaller } from './tool-call.ts';

export interface McpRouteDeps {
  process: ServerProcess;
  callTool: ToolCaller;
  clients: () => ClientManager;
}

/** The MCP routes, relative to `/api/v1`: the spec's spawn/status/kill, tool calls, servers. */
export function mcpRoutes(deps: McpRouteDeps): AnyRoute[] {
  const tags = ['mcp'];
  return [
    defineRoute({
      method: 'post',
      path: '/mcp/spawn',
      summary:
        'Starts `hearth mcp` as a child of the gateway (a second spawn returns the same pid)',
      tags,
      response: spawnResponse,
      handler: () => deps.process.spawn(),
    }),
    defineRoute({
      method: 'get',
      path: '/mcp/status',
      summary: 'Whether the spawned `hearth mcp` runs, and its pid (0 when none)',
      tags,
      response: processStatusResponse,
      handler: () => deps.process.status(),
    }),
    defineRoute({
      method: 'delete',
      path: '/mcp/server',
      summary: 'Stops the spawned `hearth mcp`; `killed` is false when none ran',
      tags,
      response: killResponse,
      handler: () => deps.process.kill(),
    }),
    defineRoute({
      method: 'post',
      path: '/mcp/tools/{name}/call',
      summary:
        'Calls a registered tool for an MCP client, as session mcp:<client>; gated tools wait for approval',
      tags,
      params: toolNameParams,
      body: toolCallBody,
      response: toolCallResponse,
      handler: ({ params, body }) => deps.callTool(params.name, body.arguments, body.client),
    }),
    defineRoute({
      method: 'get',
      path: '/mcp/servers',
      summary: 'External MCP servers: connection state, tools, last error',
      tags,
      response: serversResponse,
      handler: () => ({ servers: deps.clients().list() }),
    }),
    defineRoute({
      method: 'post',
      path: '/mcp/servers',
      summary: 'Adds an external MCP server ([[mcp.servers]] in config.toml) and connects it',
      tags,
      body: serverBody,
      response: serverStatus,
      status: 201,
      handler: ({ body }) => deps.clients().add(body),
    }),
    defineRoute({
      method: 'get',
      path: '/mcp/servers/{name}',
      summary: 'One external MCP server',
      tags,
      params: serverNameParams,
      response: serverStatus,
      handler: ({ params }) => deps.clients().get(params.name),
    }),
    defineRoute({
      method: 'patch',
      path: '/mcp/servers/{name}',
      summary: 'Enables or disables an external MCP server (saved to config.toml)',
      tags,
      params: serverNameParams,
      body: enabledBody,
      response: serverStatus,
      handler: ({ params, body }) => deps.clients().setEnabled(params.name, body.enabled),
    }),
    defineRoute({
      method: 'delete',
      path: '/mcp/servers/{name}',
      summary:
        'Removes an external MCP server (from config.toml too); its tools leave the registry',
      tags,
      params: serverNameParams,
      response: removedResponse,
      handler: ({ params }) => deps.clients().remove(params.name),
    }),
  ];
}
