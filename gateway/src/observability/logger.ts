import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  /** Human-readable output (pino-pretty) when writing to a terminal. */
  pretty: boolean;
  /** Where JSON lines go when not pretty; stdout by default. */
  destination?: pino.DestinationStream;
}

/** Structured logging for the whole process; areas take a child logger with their name. */
export function createLogger(options: LoggerOptions): Logger {
  const base = { level: options.level, base: { service: 'hearth' } };
  if (options.pretty) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  return options.destination ? pino(base, options.destination) : pino(base);
}

/** A logger that discards everything (tests, embedded use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
