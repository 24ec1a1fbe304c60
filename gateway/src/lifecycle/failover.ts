/**
 * The switching every resilient store shares (short-term cache, vector store, approval board,
 * canvas): calls go to the primary backend while it answers; the first call that fails because
 * it is unreachable switches to the fallback with one warning and is served there. While
 * degraded, `recover` runs every `probeIntervalMs` (an unref'd timer, one run at a time); once
 * it resolves true, the primary is used again with one info log. What a store keeps in step
 * across the switches (replays, mirrors, merges) stays in the store: `recover` is its hook.
 */
import type { Logger } from '../observability/logger.ts';
import { answersWithin } from './answers-within.ts';

export interface FailoverLogLine {
  fields?: Record<string, unknown>;
  msg: string;
}

export interface FailoverOptions {
  logger: Logger;
  /** How often `recover` runs while degraded; default 5,000 ms. */
  probeIntervalMs?: number | undefined;
  /**
   * Checks the primary and brings it up to date (replays what the outage changed). Resolves
   * true when the primary may be used again; false or a rejection means "still down".
   */
  recover: () => Promise<boolean>;
  /** Whether a primary's error means it is unreachable; others reject as usual. Default: all. */
  isOutage?: (error: unknown) => boolean;
  log: {
    /** Warned once per switch to the fallback; the reason is added as `err`. */
    degraded: FailoverLogLine;
    /** Logged (info) once per switch back; a function when it reports what `recover` did. */
    recovered: FailoverLogLine | (() => FailoverLogLine);
    /** Logged (debug) with the error when `recover` rejects. */
    stillDown: string;
  };
  /** Called after each switch (and its log line): true when back on the primary. */
  onSwitch?: (usingPrimary: boolean) => void;
}

export interface Failover {
  /** True until an outage is seen, and again once the primary recovered. */
  readonly usingPrimary: boolean;
  readonly closed: boolean;
  /**
   * `onPrimary` while the primary is in use; when it fails with an outage, switches and serves
   * the same call with `onFallback`. Once degraded (or closed), straight to `onFallback`.
   */
  route<T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T>;
  /** Switches to the fallback (no-op when already there or closed). */
  degrade(reason: string): void;
  /** Starts degraded unless `primary.ping()` answers true within `ms` (default 1,000 ms). */
  probeAtStart(primary: { ping(): Promise<boolean> }, ms?: number): Promise<void>;
  /** Stops probing; the store closes its backends itself. */
  close(): void;
}

const message = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

export function createFailover(options: FailoverOptions): Failover {
  const { logger, log } = options;
  const isOutage = options.isOutage ?? (() => true);
  let usingPrimary = true;
  let closed = false;
  let probing = false;
  let probeTimer: NodeJS.Timeout | undefined;

  function stopProbing(): void {
    clearInterval(probeTimer);
    probeTimer = undefined;
  }

  function degrade(reason: string): void {
    if (closed || !usingPrimary) return;
    usingPrimary = false;
    logger.warn({ ...log.degraded.fields, err: reason }, log.degraded.msg);
    options.onSwitch?.(false);
    probeTimer = setInterval(() => void probe(), options.probeIntervalMs ?? 5_000);
    probeTimer.unref();
  }

  async function probe(): Promise<void> {
    if (probing || closed || usingPrimary) return;
    probing = true;
    try {
      if (!(await options.recover())) return;
      if (closed || usingPrimary) return;
      usingPrimary = true;
      stopProbing();
      const line = typeof log.recovered === 'function' ? log.recovered() : log.recovered;
      logger.info(line.fields ?? {}, line.msg);
      options.onSwitch?.(true);
    } catch (error) {
      logger.debug({ err: message(error) }, log.stillDown);
    } finally {
      probing = false;
    }
  }

  return {
    get usingPrimary() {
      return usingPrimary;
    },
    get closed() {
      return closed;
    },
    async route<T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T> {
      if (usingPrimary && !closed) {
        try {
          return await onPrimary();
        } catch (error) {
          if (!isOutage(error)) throw error;
          degrade(message(error));
        }
      }
      return onFallback();
    },
    degrade,
    async probeAtStart(primary, ms = 1_000) {
      if (!(await answersWithin(primary, ms))) degrade('no answer to ping at start');
    },
    close() {
      closed = true;
      stopProbing();
    },
  };
}
