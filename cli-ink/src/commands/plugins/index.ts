import { basename } from 'node:path';
import type { ApiBody, ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import { showControls as show } from '@hearth/gateway/show-controls';
import type { CommandContext } from '../../deps.ts';
import { printResult } from '../../print-result.ts';
import { readSkillFile } from '../skills/format.ts';
import { kindOfFile, withGateway } from '../skills/rest.ts';

/** A plugin as the gateway answers it (GET /plugins/{name} and the lists). */
type Plugin = ApiResponse<'/plugins/{name}'>;
type Installed = ApiResponse<'/plugins', 'POST'>;
type Toggled = ApiResponse<'/plugins/{name}', 'PATCH'>;
type Reloaded = ApiResponse<'/plugins/{name}/reload', 'POST'>;
type ReloadedAll = ApiResponse<'/plugins/reload', 'POST'>;

const formatPlugin = (p: Plugin) =>
  `${show(p.name)}  ${show(p.metadata.version)}  ${p.status}  ${
    p.tools.length ? p.tools.map(show).join(', ') : '(no tools)'
  }${p.load_error ? `  error: ${show(p.load_error)}` : ''}`;

const path = (name: string) => `/plugins/${encodeURIComponent(name)}`;

/** `hearth plugins list|show|install|uninstall|enable|disable|reload`. */
export function registerPlugins(program: Command, ctx: CommandContext): void {
  const plugins = program
    .command('plugins')
    .description('plugins: skills that export a Plugin class');
  const out = (text: string) => ctx.deps.output.out(text);
  const print = (options: { json?: boolean }, data: unknown, text: () => string) =>
    printResult(ctx.deps.output, options, data, text);

  plugins
    .command('list')
    .description('plugins with their tools and load status')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { plugins: list } = await withGateway(
        ctx,
        async (send) => (await send('GET', '/plugins')) as ApiResponse<'/plugins'>,
      );
      if (options.json) return out(JSON.stringify(list, null, 2));
      out(list.length === 0 ? 'No plugins installed.' : list.map(formatPlugin).join('\n'));
    });

  plugins
    .command('show <name>')
    .description('one plugin: metadata, tools, load status')
    .option('--json', 'print JSON (the only form; accepted for scripts)')
    .action(async (name: string) => {
      const plugin = await withGateway(
        ctx,
        async (send) => (await send('GET', path(name))) as Plugin,
      );
      out(JSON.stringify(plugin, null, 2));
    });

  plugins
    .command('install <file>')
    .description('install a plugin from a file (scanned; --force overrides the scanner)')
    .option('--name <name>', 'plugin name (default: the file name without extension)')
    .option('--kind <kind>', 'mjs or py (default: from the file name)')
    .option('--force', 'install despite a scanner flag, replacing a plugin of the same name')
    .option('--json', 'print JSON')
    .action(
      async (
        file: string,
        options: { name?: string; kind?: string; force?: boolean; json?: boolean },
      ) => {
        const kind = kindOfFile(file, options.kind);
        const code = await readSkillFile(file);
        const name = options.name ?? basename(file).replace(/\.(mjs|js|py)$/, '');
        const plugin = await withGateway(
          ctx,
          async (send) =>
            (await send('POST', '/plugins', {
              name,
              code,
              kind,
              force: options.force === true,
            } satisfies ApiBody<'/plugins', 'POST'>)) as Installed,
        );
        print(options, plugin, () => `Installed ${formatPlugin(plugin)}`);
      },
    );

  plugins
    .command('uninstall <name>')
    .description('unload and delete a plugin')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      await withGateway(ctx, (send) => send('DELETE', path(name)));
      print(options, { name, uninstalled: true }, () => `Uninstalled ${show(name)}.`);
    });

  for (const [command, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    plugins
      .command(`${command} <name>`)
      .description(enabled ? 'load a disabled plugin' : 'unload a plugin and keep it disabled')
      .option('--json', 'print JSON')
      .action(async (name: string, options: { json?: boolean }) => {
        const plugin = await withGateway(
          ctx,
          async (send) =>
            (await send('PATCH', path(name), {
              enabled,
            } satisfies ApiBody<'/plugins/{name}', 'PATCH'>)) as Toggled,
        );
        print(options, plugin, () => formatPlugin(plugin));
      });
  }

  plugins
    .command('reload [name]')
    .description('re-read one plugin, or every skill and plugin, from disk')
    .option('--json', 'print JSON')
    .action(async (name: string | undefined, options: { json?: boolean }) => {
      if (name === undefined) {
        const { plugins: list } = await withGateway(
          ctx,
          async (send) => (await send('POST', '/plugins/reload')) as ReloadedAll,
        );
        return print(options, list, () =>
          [
            `Reloaded ${list.length} plugin${list.length === 1 ? '' : 's'}.`,
            ...list.map(formatPlugin),
          ].join('\n'),
        );
      }
      const plugin = await withGateway(
        ctx,
        async (send) => (await send('POST', `${path(name)}/reload`)) as Reloaded,
      );
      print(options, plugin, () => `Reloaded ${formatPlugin(plugin)}`);
    });
}
