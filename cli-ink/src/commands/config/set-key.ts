import { dirname } from 'node:path';
import { ensureStateDir, updateConfigFile } from '@hearth/gateway/config';
import type { Command } from 'commander';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { newGatewayKey, readFirstLine } from '../../secret-input.ts';
import { printResult } from '../../print-result.ts';

/** A key given on stdin: 16 to 512 visible characters (or an `ENV:`/`op://` reference). */
const GIVEN_KEY = /^[\x21-\x7e]{16,512}$/;

/**
 * `hearth config set-key [--stdin]`: sets `[gateway] api_key` in config.toml (atomically, with
 * the gateway's own writer: comments kept, file 0600). Without `--stdin` a random 256-bit key
 * is generated and printed once; with it, the key is read from standard input and not echoed.
 */
export function registerConfigSetKey(config: Command, ctx: CommandContext): void {
  config
    .command('set-key')
    .description('set gateway.api_key: generate a random key (printed once) or read one from stdin')
    .option('--stdin', 'read the key from standard input instead of generating one')
    .option('--json', 'print JSON (a generated key is its `api_key`, shown once)')
    .action(async (options: { stdin?: boolean; json?: boolean }) => {
      const path = ctx.configPath();
      let key: string;
      if (options.stdin) {
        key = await readFirstLine(ctx.deps.input);
        if (!GIVEN_KEY.test(key))
          throw new CliError(
            'the key must be 16 to 512 visible characters without spaces (or an ENV:/op:// reference)',
          );
      } else {
        key = newGatewayKey();
      }
      if (dirname(path) === ctx.deps.env.home) await ensureStateDir(ctx.deps.env.home);
      await updateConfigFile(path, 'gateway', { api_key: key });
      const restart =
        'Restart the gateway (hearth stop; hearth start) to require it: REST clients send it as ' +
        'X-API-Key, browsers as the WebSocket subprotocol hearth.key.<base64url(key)>; ' +
        'the hearth CLI reads it from config.toml.';
      printResult(
        ctx.deps.output,
        options,
        // A key read from stdin is never echoed, not even as JSON.
        { config: path, ...(options.stdin ? {} : { api_key: key }), restart_needed: true },
        () =>
          [
            `Set gateway.api_key in ${path}.`,
            ...(options.stdin ? [] : [`API key (shown once): ${key}`]),
            restart,
          ].join('\n'),
      );
    });
}
