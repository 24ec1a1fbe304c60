const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * One line of gateway.log made readable: a JSON log record becomes `level: msg (error)`,
 * anything else (the CLI's own output) is kept as is.
 */
export function summariseLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const record = JSON.parse(line) as {
      level?: unknown;
      msg?: unknown;
      err?: { message?: unknown };
    };
    if (typeof record.msg !== 'string') return line;
    const level =
      typeof record.level === 'number' ? (LEVELS[record.level] ?? String(record.level)) : 'log';
    const cause = typeof record.err?.message === 'string' ? ` (${record.err.message})` : '';
    return `${level}: ${record.msg}${cause}`;
  } catch {
    return line;
  }
}
