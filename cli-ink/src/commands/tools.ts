import type { ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import type { CommandContext } from '../deps.ts';
import { restOrLocal } from '../rest-or-local.ts';

type Tools = ApiResponse<'/tools'>;

/** `hearth tools list`: the tools the running agent can call. */
export function registerTools(program: Command, ctx: CommandContext): void {
  program
    .command('tools')
    .description('the agent’s tools')
    .command('list')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { body } = await restOrLocal<Tools>(
        ctx,
        '/api/v1/tools',
        () => Promise.resolve({ tools: [] }),
        'tools are registered in the running gateway; none to show from here.',
      );
      const { tools } = body as Tools;
      ctx.deps.output.out(
        options.json
          ? JSON.stringify(tools, null, 2)
          : tools.length
            ? tools
                .map((t) => `${t.name.padEnd(16)} ${t.source.padEnd(10)} ${t.description}`)
                .join('\n')
            : 'No tools.',
      );
    });
}
