/**
 * A small JSON-lines logger with pino's calling convention (`logger.info({ fields }, 'msg')`),
 * so the sidecar needs no logging dependency and a pino logger can be passed in its place.
 */
export interface Logger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 20, info: 30, warn: 40, error: 50, silent: 99 };

export function createJsonLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => void process.stdout.write(line),
  now: () => number = Date.now,
): Logger {
  const log = (at: Exclude<LogLevel, 'silent'>) => (fields: object, message: string) => {
    if (RANK[at] < RANK[level]) return;
    const error = 'error' in fields && fields.error instanceof Error ? fields.error : undefined;
    const line = {
      level: at,
      time: now(),
      service: 'hearth-sandbox-executor',
      msg: message,
      ...fields,
      ...(error ? { error: { message: error.message, name: error.name } } : {}),
    };
    write(`${JSON.stringify(line)}\n`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export function silentLogger(): Logger {
  return createJsonLogger('silent', () => undefined);
}
