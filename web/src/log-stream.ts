import { keyProtocol, storedKey } from './session.ts';

export interface LogLine {
  time: string;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  msg: string;
  area?: string;
}

export type StreamState = 'connecting' | 'live' | 'unavailable' | 'closed';

/** Lines the page keeps; older ones go, so a long-open page never grows without bound. */
export const MAX_LOG_LINES = 1000;

/**
 * The gateway's live log (`/ws/logs`, the key as a subprotocol like every socket): the recent
 * lines first, then each new one. Reconnects after a drop, waiting longer each time (at most
 * 30 s). Returns the function that stops it.
 */
export function streamLogs(handlers: {
  onLines: (lines: LogLine[], replace: boolean) => void;
  onState: (state: StreamState) => void;
}): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let retryMs = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    handlers.onState('connecting');
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const key = storedKey();
    socket = new WebSocket(`${scheme}//${location.host}/ws/logs`, key ? [keyProtocol(key)] : []);
    socket.onmessage = (event) => {
      let frame: { type?: unknown; available?: unknown; lines?: unknown; line?: unknown };
      try {
        frame = JSON.parse(String(event.data)) as typeof frame;
      } catch {
        return;
      }
      if (frame.type === 'log_lines') {
        retryMs = 1000;
        handlers.onState(frame.available === false ? 'unavailable' : 'live');
        handlers.onLines(Array.isArray(frame.lines) ? (frame.lines as LogLine[]) : [], true);
      } else if (frame.type === 'log' && typeof frame.line === 'object' && frame.line !== null) {
        handlers.onLines([frame.line as LogLine], false);
      }
    };
    socket.onclose = () => {
      if (stopped) return;
      handlers.onState('closed');
      timer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 30_000);
    };
  };
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
