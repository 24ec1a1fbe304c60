import type { Logger as SdkLogger } from 'matrix-js-sdk/lib/logger.js';
import type { Logger } from 'pino';

/**
 * matrix-js-sdk's logger interface over the gateway's pino logger. The SDK narrates its sync
 * loop in detail (including errors the channel reports as health), so everything is debug.
 */
export function sdkLogger(logger: Logger, namespace = 'matrix-sdk'): SdkLogger {
  const log =
    (...args: unknown[]) =>
      logger.debug({ sdk: namespace }, args.map((a) => (a instanceof Error ? a.message : String(a))).join(' '));
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: log,
    warn: log,
    error: log,
    getChild: (child: string) => sdkLogger(logger, `${namespace}:${child}`),
  };
}
