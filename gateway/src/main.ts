/**
 * The gateway process: the only place that reads the environment. `npm start` runs this file.
 * Flags: --bind HOST, --port N, -c/--config PATH (the CLI's `hearth start` offers the same).
 *
 * First, the process re-executes itself once with the memory set-up of
 * config/runtime-tuning.ts (allocator, young-generation size); only then is the gateway
 * loaded, so the first image loads nothing heavy. The re-executed process turns on Node's
 * compile cache in the state directory (config/compile-cache.ts) before it loads the gateway.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tuneThisProcess } from './config/runtime-tuning.ts';

// Not an ESM import: filling node:util's ESM namespace runs its lazy getters (TextDecoder,
// transferableAbortSignal…), ~40 internal modules and ~10 ms of CPU in the first image, which
// only re-executes itself.
const { parseArgs } = process.getBuiltinModule('node:util');

const { values } = parseArgs({
  options: {
    bind: { type: 'string' },
    port: { type: 'string' },
    config: { type: 'string', short: 'c' },
  },
  strict: true,
});

const runtime = tuneThisProcess();

try {
  const [{ readEnvironment }, compileCache] = await Promise.all([
    import('./config/environment.ts'),
    import('./config/compile-cache.ts'),
  ]);
  const env = readEnvironment();
  runtime.compileCache = compileCache.enableGatewayCompileCache(env.home, env.variables);
  const [{ runGateway }, { installSignalHandlers }] = await Promise.all([
    import('./run.ts'),
    import('./lifecycle/signals.ts'),
  ]);
  const running = await runGateway({
    env,
    configPath: values.config,
    host: values.bind,
    port: values.port === undefined ? undefined : Number(values.port),
    pretty: process.stdout.isTTY,
    runtime,
    // The CLI beside this gateway (dist/cli-ink/src/main.js, or the sources run directly).
    mcpServerCommand: {
      command: process.execPath,
      args: [
        fileURLToPath(
          new URL(`../../cli-ink/src/main${extname(import.meta.url)}`, import.meta.url),
        ),
        'mcp',
      ],
    },
  });
  installSignalHandlers(running);
  running.gateway.whenReady().then(compileCache.flushGatewayCompileCache, () => {
    running.logger.fatal(`Start-up failed: ${running.gateway.startup.failure ?? 'unknown error'}`);
    void running.stop().finally(() => process.exit(1));
  });
} catch (error) {
  process.stderr.write(`hearth: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
