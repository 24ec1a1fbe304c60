import * as TOML from '@decimalturn/toml-patch';
import { parseConfig } from '@hearth/gateway';
import type { Command } from 'commander';
import { readConfigText } from '../../config-file.ts';
import type { CommandContext } from '../../deps.ts';
import { redactConfig } from '../../redact-config.ts';

/**
 * `hearth config show [--json]`: the effective configuration (defaults filled in) with every
 * secret redacted. ENV:/op:// references are not resolved, so nothing secret is ever read.
 */
export function registerConfigShow(config: Command, ctx: CommandContext): void {
  config
    .command('show')
    .description('print the configuration with secrets redacted')
    .option('--json', 'print JSON instead of TOML')
    .action(async (options: { json?: boolean }) => {
      const path = ctx.configPath();
      const { text, exists } = await readConfigText(path);
      const redacted = redactConfig(parseConfig(text, path));
      if (options.json) {
        ctx.deps.output.out(JSON.stringify(redacted, null, 2));
        return;
      }
      const header = exists ? `# ${path}` : `# ${path} does not exist: these are the defaults`;
      ctx.deps.output.out(`${header}\n\n${TOML.stringify(redacted)}`);
    });
}
