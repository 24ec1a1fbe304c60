/**
 * The gateway process: the only place that reads the environment. `npm start` runs this file.
 * Flags: --bind HOST, --port N, -c/--config PATH (the CLI's `hearth start` offers the same), and
 * --announce: print `Hearth is ready at URL` on stdout once ready, as `hearth start` does (it hands
 * its process over to this file with it: lifecycle/hand-over.ts).
 *
 * First, the process re-executes itself once with the memory set-up of
 * config/runtime-tuning.ts (allocator, young-generation size; the old generation's growth is
 * set once the gateway is ready); only then is the gateway
 * loaded, so the first image loads nothing heavy. The re-executed process turns on Node's
 * compile cache in the state directory (config/compile-cache.ts) before it loads the gateway.
 * Then it binds the port at once (lifecycle/early-start.ts), so `/health` answers while the
 * gateway loads; the gateway's server takes that socket over. A config file that cannot be
 * read cheaply, or a failed bind, leaves the binding to the gateway, which reports it as ever.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyAfterReady, runtimeTuningOff, tuneThisProcess } from './config/runtime-tuning.ts';

// Not an ESM import: filling node:util's ESM namespace runs its lazy getters (TextDecoder,
// transferableAbortSignal…), ~40 internal modules and ~10 ms of CPU in the first image, which
// only re-executes itself.
const { parseArgs } = process.getBuiltinModule('node:util');

const { values } = parseArgs({
  options: {
    bind: { type: 'string' },
    port: { type: 'string' },
    config: { type: 'string', short: 'c' },
    announce: { type: 'boolean' },
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
    // The gateway's modules in slices, so the early listener answers while they load.
    const { loadInSlices } = await import('./lifecycle/load-in-slices.ts');
    await loadInSlices(gatewaySlices());
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
  running.gateway.whenReady().then(
    () => {
      if (values.announce === true) void announceReady(running.address);
      compileCache.flushGatewayCompileCache();
      // After the flush: the flags change V8's flag hash, which the cache's entries carry.
      applyAfterReady(runtime);
      if (!runtimeTuningOff(env.variables)) void scheduleStartUpGarbage(running.logger);
    },
    () => {
      const failure = running.gateway.startup.failure ?? 'unknown error';
      running.logger.fatal(`Start-up failed: ${failure}`);
      process.stderr.write(`hearth: start-up failed: ${failure}\n`);
      void running.stop().finally(() => process.exit(1));
    },
  );
} catch (error) {
  await abandon?.();
  process.stderr.write(`hearth: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

/**
 * The gateway's modules in the order run.ts and gateway.ts import them, in slices, for
 * lifecycle/load-in-slices.ts: the heaviest dependencies, then each area. A module missing here
 * only loads in the last slice (run.ts); nothing depends on this list but how promptly the
 * early listener answers while the gateway loads.
 */
function gatewaySlices(): (() => Promise<unknown>)[] {
  return [
    () => import('zod'),
    () => import('express'),
    () => import('pino'),
    () => import('./config/load.ts'),
    () => import('./lifecycle/kernel.ts'),
    () => import('./lifecycle/serve-areas.ts'),
    () => import('./providers/area.ts'),
    () => import('./settings/area.ts'),
    () => import('./privacy/area.ts'),
    () => import('./db/area.ts'),
    () => import('./usage/area.ts'),
    () => import('./sessions/area.ts'),
    () => import('./memory/area.ts'),
    () => import('./scale-out/area.ts'),
    () => import('./approvals/area.ts'),
    () => import('./tools/area.ts'),
    () => import('./skills/area.ts'),
    () => import('./hub/area.ts'),
    () => import('./mcp/area.ts'),
    () => import('./orchestrator/area.ts'),
    () => import('./agent/area.ts'),
    () => import('./voice/area.ts'),
    () => import('./canvas/area.ts'),
    () => import('./push/area.ts'),
    () => import('./web-client/area.ts'),
    () => import('./channels/area.ts'),
    () => import('./logs/area.ts'),
    () => import('./local-model/area.ts'),
    () => import('./status/area.ts'),
    () => import('./db/open-database.ts'),
  ];
}

/** Start-up's garbage collected 1 s after /ready (lifecycle/start-up-garbage.ts). */
async function scheduleStartUpGarbage(logger: { debug(message: string): void }): Promise<void> {
  const { collectStartUpGarbageSoon } = await import('./lifecycle/start-up-garbage.ts');
  collectStartUpGarbageSoon(({ ms, heapFreedBytes }) =>
    logger.debug(
      `Start-up garbage collected: ${(heapFreedBytes / 1_048_576).toFixed(1)} MB of heap in ${ms.toFixed(0)} ms`,
    ),
  );
}

/** `--announce`: the line `hearth start` prints once the gateway is ready. */
async function announceReady(address: { host: string; port: number }): Promise<void> {
  const { gatewayUrl } = await import('./config/reachable-url.ts');
  const url = gatewayUrl(address.host, address.port);
  process.stdout.write(
    `Hearth is ready at ${url}${process.stdout.isTTY ? ' (Ctrl+C to stop)' : ''}\n`,
  );
}

function onEarlySignal(): void {
  void (abandon?.() ?? Promise.resolve()).finally(() => process.exit(0));
}
