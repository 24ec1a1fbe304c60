import type { Command } from 'commander';
import { CliError } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { locateGateway } from '../locate-gateway.ts';

/** The program that opens a URL in the desktop's browser, per platform. */
function opener(platform: NodeJS.Platform, url: string): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

/** No desktop to open a browser on: Linux/BSD without an X or Wayland display, or over SSH. */
export function isHeadless(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (platform === 'darwin' || platform === 'win32')
    return Boolean(env.SSH_CONNECTION) && !env.DISPLAY;
  return !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

/** `hearth open [--print] [--json]`: the web client in the browser, or its URL when headless. */
export function registerOpen(program: Command, ctx: CommandContext): void {
  program
    .command('open')
    .description('open the web client in the browser (prints the URL when there is no desktop)')
    .option('--print', 'only print the URL')
    .option('--json', 'print {url, opened} as JSON')
    .action(async (options: { print?: boolean; json?: boolean }) => {
      const { deps } = ctx;
      const url = `${(await locateGateway(ctx)).baseUrl}/`;
      const headless = isHeadless(deps.platform, deps.env.variables);
      let opened = false;
      let note = '';
      if (!options.print && !headless) {
        const [command, args] = opener(deps.platform, url);
        const result = await deps.runProgram(command, args, { detached: true });
        opened = result.code === 0;
        if (!opened) note = `could not run ${command} (${result.error ?? `exit ${result.code}`})`;
      } else if (!options.print) note = 'no desktop here (no DISPLAY or WAYLAND_DISPLAY)';
      if (options.json)
        return deps.output.out(JSON.stringify({ url, opened, ...(note ? { note } : {}) }));
      if (opened) return deps.output.out(`Opened ${url} in the browser.`);
      deps.output.out(url);
      if (note && !options.print) deps.output.err(`note: ${note}; open the URL above yourself.`);
      if (note.startsWith('could not run')) throw new CliError('the browser could not be opened');
    });
}
