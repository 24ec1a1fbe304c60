import type { ApiBody, ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import { showControls } from '@hearth/gateway/show-controls';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import {
  GatewayHttpError,
  GatewayUnreachableError,
  type GatewayClient,
} from '../../gateway-client.ts';
import { locateGateway } from '../../locate-gateway.ts';

/** An external server as `GET /api/v1/mcp/servers` shows it. */
export type ServerRow = ApiResponse<'/mcp/servers'>['servers'][number];
type Added = ApiResponse<'/mcp/servers', 'POST'>;
type Toggled = ApiResponse<'/mcp/servers/{name}', 'PATCH'>;

export interface AddOptions {
  url?: string;
  env?: string[];
  tools?: string;
  disabled?: boolean;
  json?: boolean;
}

const PATH = '/api/v1/mcp/servers';

/** Runs `request` against the running gateway; its errors as the CLI reports them. */
async function withGateway<T>(
  ctx: CommandContext,
  request: (client: GatewayClient) => Promise<T>,
): Promise<T> {
  const client = await locateGateway(ctx);
  try {
    return await request(client);
  } catch (error) {
    if (error instanceof GatewayHttpError) throw new CliError(error.detail);
    if (error instanceof GatewayUnreachableError)
      throw new CliError(
        `${error.message}; MCP servers are managed by the running gateway (hearth start)`,
      );
    throw error;
  }
}

/** `KEY=VALUE` words as an object; a word without `=` is a usage error (exit 2). */
export function parseEnv(words: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    if (at <= 0) throw new CliError(`--env wants KEY=VALUE, got '${word}'`, 2);
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  return env;
}

/** The `POST /mcp/servers` body for `add <name> [command...]`. */
export function addBody(
  name: string,
  command: readonly string[],
  options: AddOptions,
): ApiBody<'/mcp/servers', 'POST'> {
  if ((options.url === undefined) === (command.length === 0))
    throw new CliError('give either a command (stdio) or --url (Streamable HTTP), not both', 2);
  return {
    name,
    ...(options.url === undefined
      ? { command: command[0], args: command.slice(1) }
      : { url: options.url }),
    env: parseEnv(options.env ?? []),
    enabled: options.disabled !== true,
    ...(options.tools === undefined
      ? {}
      : {
          tools: options.tools
            .split(',')
            .map((tool) => tool.trim())
            .filter(Boolean),
        }),
  };
}

export function formatServer(server: ServerRow): string {
  const error =
    server.last_error === null ? '' : `  last error: ${showControls(server.last_error)}`;
  return `${server.name.padEnd(16)} ${server.transport.padEnd(5)} ${server.state.padEnd(10)} ${String(server.tool_count).padStart(3)} tools${error}`;
}

/** `hearth mcp servers list|add|remove|enable|disable`: `[[mcp.servers]]` through the gateway. */
export function registerServers(mcp: Command, ctx: CommandContext): void {
  const servers = mcp
    .command('servers')
    .description('external MCP servers whose tools Hearth uses');
  const out = (text: string) => ctx.deps.output.out(text);
  const print = (server: ServerRow, json?: boolean) =>
    out(json ? JSON.stringify(server, null, 2) : formatServer(server));

  servers
    .command('list')
    .description('each server’s connection state, tools and last error')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { servers: rows } = await withGateway(
        ctx,
        async (client) => (await client.getJson(PATH)) as ApiResponse<'/mcp/servers'>,
      );
      if (options.json) out(JSON.stringify(rows, null, 2));
      else out(rows.length === 0 ? 'No MCP servers.' : rows.map(formatServer).join('\n'));
    });

  servers
    .command('add <name> [command...]')
    .description(
      'add a server: a command to run (stdio; put -- before it) or --url (Streamable HTTP)',
    )
    .option('--url <url>', 'a Streamable HTTP server')
    .option(
      '--env <KEY=VALUE...>',
      'environment of a stdio server (secret-looking names are dropped)',
    )
    .option('--tools <names>', 'comma-separated allow-list of its tools')
    .option('--disabled', 'add it disabled')
    .option('--json', 'print JSON')
    .action(async (name: string, command: string[], options: AddOptions) => {
      const body = addBody(name, command, options);
      print(
        await withGateway(
          ctx,
          async (client) => (await client.sendJson('POST', PATH, body)) as Added,
        ),
        options.json,
      );
    });

  servers
    .command('remove <name>')
    .description('remove a server; its tools leave the agent')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const result = await withGateway(ctx, (client) =>
        client.sendJson('DELETE', `${PATH}/${encodeURIComponent(name)}`),
      );
      out(options.json ? JSON.stringify(result, null, 2) : `Removed ${name}.`);
    });

  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    servers
      .command(`${verb} <name>`)
      .description(`${verb} a server (saved to config.toml)`)
      .option('--json', 'print JSON')
      .action(async (name: string, options: { json?: boolean }) => {
        print(
          await withGateway(
            ctx,
            async (client) =>
              (await client.sendJson('PATCH', `${PATH}/${encodeURIComponent(name)}`, {
                enabled,
              } satisfies ApiBody<'/mcp/servers/{name}', 'PATCH'>)) as Toggled,
          ),
          options.json,
        );
      });
  }
}
