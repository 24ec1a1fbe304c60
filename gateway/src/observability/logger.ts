import pino, { type Logger } from 'pino';
import type { LogTail } from './log-tail.ts';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  /** Human-readable output (pino-pretty) when writing to a terminal. */
  pretty: boolean;
  /** Where JSON lines go when not pretty; stdout by default. */
  destination?: pino.DestinationStream;
  /** Also keeps the lines in memory for the log routes (`/api/v1/logs`, `/ws/logs`). */
  tail?: LogTail;
}

/** Structured logging for the whole process; areas take a child logger with their name. */
export function createLogger(options: LoggerOptions): Logger {
  const base = { level: options.level, base: { service: 'hearth' } };
  const main: pino.DestinationStream = options.pretty
    ? pino.transport({ target: 'pino-pretty', options: { colorize: true } })
    : (options.destination ?? pino.destination(1));
  if (!options.tail) return pino(base, main);
  // Each stream takes every line the logger's own level lets through.
  return pino(
    base,
    pino.multistream([
      { stream: main, level: 'trace' },
      { stream: options.tail.destination, level: 'trace' },
    ]),
  );
}

/** A logger that discards everything (tests, embedded use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
