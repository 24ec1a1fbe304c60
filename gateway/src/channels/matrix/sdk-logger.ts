import { logger as sdkGlobalLogger, type Logger as SdkLogger } from 'matrix-js-sdk/lib/logger.js';
import type { Logger } from 'pino';

/**
 * matrix-js-sdk's logger interface over the gateway's pino logger. The SDK narrates its sync
 * loop in detail (including errors the channel reports as health), so everything is debug.
 */
export function sdkLogger(logger: Logger, namespace = 'matrix-sdk'): SdkLogger {
  const log = (...args: unknown[]) =>
    logger.debug(
      { sdk: namespace },
      args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '),
    );
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: log,
    warn: log,
    error: log,
    getChild: (child: string) => sdkLogger(logger, `${namespace}:${child}`),
  };
}

/**
 * Parts of matrix-js-sdk log through its process-wide `loglevel` logger (not the client's), to
 * the console. Its child loggers copy the root's method factory when created, so replacing it
 * once keeps them quiet too; what matters to the channel is reported as health and rejections.
 */
export function quietSdkGlobalLogger(): void {
  const root = sdkGlobalLogger as unknown as {
    methodFactory: (...args: unknown[]) => (...args: unknown[]) => void;
    rebuild?: () => void;
  };
  root.methodFactory = () => () => undefined;
  root.rebuild?.();
}
