import type { Command } from 'commander';
import { VERSION } from '@hearth/gateway/version';
import type { CommandContext } from '../../deps.ts';
import { createGatewayClient, type GatewayClient } from '../../gateway-client.ts';
import { locateGateway } from '../../locate-gateway.ts';
import { registerServers } from './servers.ts';

/**
 * The gateway `hearth mcp` talks to: the one named by HEARTH_GATEWAY_URL/HEARTH_API_KEY (what
 * `POST /mcp/spawn` sets), else the gateway this machine runs, found like every command does.
 */
export async function mcpGateway(ctx: CommandContext): Promise<GatewayClient> {
  const { env } = ctx.deps;
  if (env.gatewayUrl === undefined) return locateGateway(ctx);
  const key = env.apiKey;
  return createGatewayClient({
    baseUrl: env.gatewayUrl,
    fetch: ctx.deps.fetch,
    apiKey: () => Promise.resolve(key),
  });
}

/** `hearth mcp` (Hearth's tools as a stdio MCP server) and `hearth mcp servers …`. */
export function registerMcp(program: Command, ctx: CommandContext): void {
  const mcp = program
    .command('mcp')
    .description(
      'serve the running gateway’s tools as an MCP server on stdio (for editors and desktop apps)',
    )
    .action(async () => {
      const [{ createHearthMcpServer }, { serveStdio }] = await Promise.all([
        import('./stdio-server.ts'),
        import('./serve-stdio.ts'),
      ]);
      const gateway = await mcpGateway(ctx);
      await serveStdio(
        createHearthMcpServer(gateway, VERSION),
        ctx.deps.input,
        // The process's stdout (main.ts): only protocol messages are written to it.
        ctx.deps.promptOutput,
      );
    });
  registerServers(mcp, ctx);
}
