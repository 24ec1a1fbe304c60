import type { Command } from 'commander';
import type { CommandContext } from '../deps.ts';
import { readFirstLine } from '../secret-input.ts';

interface Options {
  provider?: string;
  key?: string;
  keyStdin?: boolean;
  baseUrl?: string;
  endpoint?: string;
  region?: string;
  model?: string;
  fast?: string;
  fallback?: string;
  gatewayKey?: string;
  skipCheck?: boolean;
  json?: boolean;
}

/**
 * `hearth setup`: first-run configuration of a provider. Interactive in a terminal; with
 * `--provider` (and the fields it needs) no question is asked, for scripts.
 */
export function registerSetup(program: Command, ctx: CommandContext): void {
  program
    .command('setup')
    .description('first run: pick a provider, its key and models, check it live, write config.toml')
    .option('--provider <name>', 'one of the 19 providers (hearth models list)')
    .option(
      '--key <value>',
      'its API key: ENV:VAR or op://vault/item/field (a literal is visible in ps)',
    )
    .option('--key-stdin', 'read the API key from standard input')
    .option('--base-url <url>', 'ollama / openai_compatible base URL')
    .option('--endpoint <url>', 'azure endpoint')
    .option('--region <region>', 'bedrock region')
    .option('--model <id>', 'the primary model (default: the provider’s)')
    .option('--fast <id>', 'the fast model')
    .option('--fallback <id>', 'the fallback model')
    .option('--gateway-key <key>', '"generate" or a key: set gateway.api_key for non-loopback use')
    .option('--skip-check', 'write without the live check')
    .option('--json', 'print the result as JSON')
    .action(async (options: Options) => {
      const setup = await import('../setup/run-setup.ts');
      const provider = options.provider;
      const fields: Record<string, string> = {};
      const spec = setup.CATALOG.find((p) => p.name === provider);
      const key = options.keyStdin ? await readFirstLine(ctx.deps.input) : options.key;
      for (const field of spec?.settingsFields ?? []) {
        const value = field.endsWith('_api_key')
          ? key
          : field.endsWith('_base_url')
            ? options.baseUrl
            : field.endsWith('_endpoint')
              ? options.endpoint
              : field.endsWith('_region')
                ? options.region
                : undefined;
        if (value !== undefined) fields[field] = value;
      }
      const flags = {
        provider,
        fields,
        primary: options.model,
        fast: options.fast,
        fallback: options.fallback,
        gatewayKey: options.gatewayKey,
        skipCheck: options.skipCheck,
        json: options.json,
      };
      if (provider !== undefined || !ctx.deps.isTTY) await setup.runSetupWithFlags(ctx, flags);
      else await setup.runSetupInteractive(ctx, flags);
    });
}
