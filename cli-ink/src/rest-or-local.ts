import { CliError } from './cli-error.ts';
import type { CommandContext } from './deps.ts';
import { GatewayHttpError, GatewayUnreachableError } from './gateway-client.ts';
import { locateGateway } from './locate-gateway.ts';

/**
 * The spec's rule for `usage`, `approvals`, `hub` and `orchestrate`: ask the running gateway's
 * REST API first; when none answers, run `local()` in this process and print a note saying so.
 */
export async function restOrLocal<T>(
  ctx: CommandContext,
  path: string,
  local: () => Promise<T>,
  note: string,
): Promise<{ body: unknown; local: boolean }> {
  const client = await locateGateway(ctx);
  try {
    return { body: await client.getJson(path), local: false };
  } catch (error) {
    if (!(error instanceof GatewayUnreachableError))
      throw error instanceof Error ? new CliError(error.message) : error;
    ctx.deps.output.err(`note: ${error.message}; ${note}`);
    return { body: await local(), local: true };
  }
}

export type Send = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<unknown>;

/**
 * The same rule for commands that change things or may run long: asks `/health` first, then
 * `rest(send)` against the gateway that answered (its `{detail}` becomes the CLI error; a slow
 * answer is an error, never a second run in this process); when none answers, `local()` after
 * a note saying so.
 */
export async function viaGatewayOrLocal<T>(
  ctx: CommandContext,
  rest: (send: Send) => Promise<T>,
  local: () => Promise<T>,
  note: string,
  options: { timeoutMs?: number } = {},
): Promise<{ value: T; local: boolean }> {
  const client = await locateGateway(ctx, options);
  if (!(await client.isAnswering())) {
    ctx.deps.output.err(`note: no gateway answering at ${client.baseUrl}; ${note}`);
    return { value: await local(), local: true };
  }
  try {
    return {
      value: await rest((method, path, body) =>
        method === 'GET' ? client.getJson(path) : client.sendJson(method, path, body),
      ),
      local: false,
    };
  } catch (error) {
    if (error instanceof GatewayHttpError) throw new CliError(error.detail);
    if (error instanceof GatewayUnreachableError) throw new CliError(error.message);
    throw error;
  }
}
