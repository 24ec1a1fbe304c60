import type { Logger } from 'pino';

/**
 * SIGTERM/SIGINT: stop accepting, drain, close stores, exit 0. A second signal, or a drain
 * that overruns `graceMs`, exits at once.
 */
export function installSignalHandlers(
  running: { stop(): Promise<void>; logger: Logger },
  graceMs = 6_000,
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    running.logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), graceMs).unref();
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        running.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
