import { CliError } from './cli-error.ts';
import type { CommandContext } from './deps.ts';
import { GatewayUnreachableError } from './gateway-client.ts';
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
