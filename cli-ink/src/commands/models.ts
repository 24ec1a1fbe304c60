import { loadConfig, createOnePasswordReader, PROVIDERS, providerStatuses } from '@hearth/gateway';
import type { ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import type { CommandContext } from '../deps.ts';
import { restOrLocal } from '../rest-or-local.ts';

type Models = ApiResponse<'/models'>;
type Provider = Models['providers'][number];
/** GET /models; the status computed by this process when no gateway answers has no routing. */
type ModelsResponse = Pick<Models, 'providers'> & Partial<Pick<Models, 'routing'>>;

/** `hearth models list | status [--live]`. */
export function registerModels(program: Command, ctx: CommandContext): void {
  const models = program.command('models').description('LLM providers and their status');

  models
    .command('list')
    .description(
      'the 19 providers, the model-id prefixes that select them, and their settings fields',
    )
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => {
      const rows = PROVIDERS.map((p) => ({
        provider: p.name,
        prefixes: p.prefixes,
        settings: p.settingsFields,
      }));
      ctx.deps.output.out(
        options.json
          ? JSON.stringify(rows, null, 2)
          : rows
              .map(
                (r) =>
                  `${r.provider.padEnd(18)} ${r.prefixes.join(', ').padEnd(34)} ${r.settings.join(', ')}`,
              )
              .join('\n'),
      );
    });

  models
    .command('status')
    .description('which providers are configured (and reachable, with --live)')
    .option('--live', 'probe providers that have a stable check (GET /models, /api/tags)')
    .option('--json', 'print JSON')
    .action(async (options: { live?: boolean; json?: boolean }) => {
      const { body } = await restOrLocal<ModelsResponse>(
        ctx,
        `/api/v1/models${options.live ? '?live=true' : ''}`,
        async () => {
          const { env } = ctx.deps;
          const loaded = await loadConfig(ctx.configPath(), {
            env: env.variables,
            readOnePassword: createOnePasswordReader(env.variables),
          });
          return {
            providers: await providerStatuses(loaded.config.models, options.live === true, {
              fetch: ctx.deps.fetch,
            }),
          };
        },
        'showing the status computed from the configuration file by this process.',
      );
      const response = body as ModelsResponse;
      ctx.deps.output.out(
        options.json ? JSON.stringify(response, null, 2) : formatStatuses(response.providers),
      );
    });
}

export function formatStatuses(providers: readonly Provider[]): string {
  return providers
    .map((p) => {
      const state = p.configured === null ? 'sdk-chain' : p.configured ? 'configured' : '-';
      const live = p.live_checked ? (p.reachable ? 'reachable' : 'unreachable') : '';
      return `${p.provider.padEnd(18)} ${state.padEnd(11)} ${live.padEnd(11)} ${p.detail}`;
    })
    .join('\n');
}
