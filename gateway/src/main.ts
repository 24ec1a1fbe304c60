/**
 * The gateway process: the only place that reads the environment. `npm start` runs this file.
 * Flags: --bind HOST, --port N, -c/--config PATH (the CLI's `hearth start` offers the same).
 *
 * First, the process re-executes itself once with the memory set-up of
 * config/runtime-tuning.ts (allocator, young-generation size); only then is the gateway
 * loaded, so the first image loads nothing heavy. The re-executed process turns on Node's
 * compile cache in the state directory (config/compile-cache.ts) before it loads the gateway.
 * Then it binds the port at once (lifecycle/early-start.ts), so `/health` answers while the
 * gateway loads; the gateway's server takes that socket over. A config file that cannot be
 * read cheaply, or a failed bind, leaves the binding to the gateway, which reports it as ever.
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
const port = values.port === undefined ? undefined : Number(values.port);

let abandon: (() => Promise<void>) | undefined;
try {
  const [{ readEnvironment }, compileCache] = await Promise.all([
    import('./config/environment.ts'),
    import('./config/compile-cache.ts'),
  ]);
  const env = readEnvironment();
  runtime.compileCache = compileCache.enableGatewayCompileCache(env.home, env.variables);
  const [{ startEarly, abandonEarlyStart }, { AGENT_NAME }] = await Promise.all([
    import('./lifecycle/early-start.ts'),
    import('./status/agent-name.ts'),
  ]);
  const configPath = values.config ?? env.configPath;
  const early = await startEarly({
    home: env.home,
    configPath,
    host: values.bind,
    port,
    env: env.variables,
    agent: AGENT_NAME,
  });
  if (early !== undefined) {
    abandon = () => abandonEarlyStart(early, env.home);
    // Stopped while the gateway loads (`hearth stop` finds the runtime file): no runtime file
    // is left behind. The gateway's own handlers replace these once it runs.
    process.once('SIGTERM', onEarlySignal);
    process.once('SIGINT', onEarlySignal);
  }
  const [{ runGateway }, { installSignalHandlers }] = await Promise.all([
    import('./run.ts'),
    import('./lifecycle/signals.ts'),
  ]);
  const running = await runGateway({
    env,
    configPath: values.config,
    host: values.bind,
    port,
    pretty: process.stdout.isTTY,
    runtime,
    listenOn: early,
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
  abandon = undefined;
  process.off('SIGTERM', onEarlySignal);
  process.off('SIGINT', onEarlySignal);
  installSignalHandlers(running);
  running.gateway.whenReady().then(compileCache.flushGatewayCompileCache, () => {
    running.logger.fatal(`Start-up failed: ${running.gateway.startup.failure ?? 'unknown error'}`);
    void running.stop().finally(() => process.exit(1));
  });
} catch (error) {
  await abandon?.();
  process.stderr.write(`hearth: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

function onEarlySignal(): void {
  void (abandon?.() ?? Promise.resolve()).finally(() => process.exit(0));
}
