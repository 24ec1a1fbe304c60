/**
 * The gateway process: the only place that reads the environment. `npm start` runs this file.
 * Flags: --bind HOST, --port N, -c/--config PATH (the CLI's `hearth start` offers the same).
 */
import { parseArgs } from 'node:util';
import { readEnvironment } from './config/environment.ts';
import { runGateway } from './run.ts';
import { installSignalHandlers } from './lifecycle/signals.ts';

const { values } = parseArgs({
  options: {
    bind: { type: 'string' },
    port: { type: 'string' },
    config: { type: 'string', short: 'c' },
  },
  strict: true,
});

try {
  const running = await runGateway({
    env: readEnvironment(),
    configPath: values.config,
    host: values.bind,
    port: values.port === undefined ? undefined : Number(values.port),
    pretty: process.stdout.isTTY,
  });
  installSignalHandlers(running);
  running.gateway.whenReady().catch(() => {
    running.logger.fatal(`Start-up failed: ${running.gateway.startup.failure ?? 'unknown error'}`);
    void running.stop().finally(() => process.exit(1));
  });
} catch (error) {
  process.stderr.write(`hearth: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
