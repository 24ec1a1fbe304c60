/**
 * The gateway's own recent log lines, kept in memory for `GET /api/v1/logs` and `/ws/logs`
 * (the dashboard's log pane). A pino destination: every JSON line the logger writes is parsed
 * into a short record, kept in a ring of `capacity` lines and handed to live subscribers.
 * Only what the logger already writes is kept (pino's output never carries secrets or bodies).
 */
export interface LogLine {
  /** ISO 8601 UTC. */
  time: string;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  msg: string;
  /** The child logger's `area` (or `skill`), when it has one. */
  area?: string;
}

export interface LogTail {
  /** How many lines the ring keeps. */
  readonly capacity: number;
  /** What pino writes to (one JSON line per call). */
  readonly destination: { write(chunk: string): boolean };
  /** The newest `limit` lines, oldest first. */
  recent(limit: number): LogLine[];
  /** Calls `listener` with every new line until the returned function is called. */
  subscribe(listener: (line: LogLine) => void): () => void;
}

const LEVELS: Record<number, LogLine['level']> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** A message longer than this is cut (a log pane shows one line per record). */
export const MAX_MESSAGE_CHARS = 2_000;

export function createLogTail(options: { capacity?: number } = {}): LogTail {
  const capacity = options.capacity ?? 500;
  const ring: LogLine[] = [];
  const listeners = new Set<(line: LogLine) => void>();

  return {
    capacity,
    destination: {
      write(chunk) {
        for (const text of chunk.split('\n')) {
          const line = parseLine(text);
          if (line === undefined) continue;
          ring.push(line);
          if (ring.length > capacity) ring.shift();
          for (const listener of listeners) {
            try {
              listener(line);
            } catch {
              // a failing listener never breaks logging (it must not log either: that would loop)
            }
          }
        }
        return true;
      },
    },
    recent: (limit) => ring.slice(Math.max(0, ring.length - Math.max(0, limit))),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** One pino JSON line as a LogLine; undefined for anything else (blank or not JSON). */
export function parseLine(text: string): LogLine | undefined {
  if (text.trim() === '') return undefined;
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    record = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const time = typeof record.time === 'number' ? new Date(record.time) : new Date();
  const level = LEVELS[typeof record.level === 'number' ? record.level : 30] ?? 'info';
  const err = record.err as { message?: unknown } | undefined;
  const base = typeof record.msg === 'string' ? record.msg : '';
  const withError =
    err && typeof err.message === 'string' && !base.includes(err.message)
      ? `${base}${base ? ': ' : ''}${err.message}`
      : base;
  const area =
    typeof record.area === 'string'
      ? record.area
      : typeof record.skill === 'string'
        ? `skill ${record.skill}`
        : undefined;
  return {
    time: Number.isNaN(time.getTime()) ? new Date().toISOString() : time.toISOString(),
    level,
    msg:
      withError.length > MAX_MESSAGE_CHARS
        ? `${withError.slice(0, MAX_MESSAGE_CHARS)}…`
        : withError,
    ...(area ? { area: area.slice(0, 100) } : {}),
  };
}
