import { createLogger, type Logger } from '../logger.ts';

export interface CapturedLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A real pino logger whose JSON lines are kept in memory, for assertions on what was logged. */
export function capturingLogger(): {
  logger: Logger;
  lines: CapturedLine[];
  warnings: () => CapturedLine[];
} {
  const lines: CapturedLine[] = [];
  const logger = createLogger({
    level: 'debug',
    pretty: false,
    destination: {
      write(line: string) {
        lines.push(JSON.parse(line) as CapturedLine);
      },
    },
  });
  return { logger, lines, warnings: () => lines.filter((line) => line.level === 40) };
}
