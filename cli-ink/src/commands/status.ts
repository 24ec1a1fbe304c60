import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { GatewayUnreachableError } from '../gateway-client.ts';
import { locateGateway } from '../locate-gateway.ts';
import { formatStatus } from './format-status.ts';

/** `hearth status [--json]`: GET /api/v1/status of the running gateway. */
export function registerStatus(program: Command, ctx: CommandContext): void {
  program
    .command('status')
    .description('show the running gateway’s status')
    .option('--json', 'print the raw status object')
    .action(async (options: { json?: boolean }) => {
      const client = await locateGateway(ctx);
      let status: unknown;
      try {
        status = await client.getJson('/api/v1/status');
      } catch (error) {
        if (error instanceof GatewayUnreachableError) throw new CliError(error.message);
        throw error;
      }
      if (!isStatusObject(status)) {
        throw new CliError(
          `${client.baseUrl} answered, but not with a Hearth status (another service on that port?).`,
        );
      }
      ctx.deps.output.out(
        options.json ? JSON.stringify(status, null, 2) : formatStatus(status, client.baseUrl),
      );
    });
}

function isStatusObject(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    'status' in body &&
    typeof body.status === 'string' &&
    'version' in body &&
    typeof body.version === 'string'
  );
}
