import type { WebSocket } from 'ws';
import type { LogTail } from '../observability/log-tail.ts';
import { createFrameSender, parseFrame, type FrameSenderLimits } from '../ws/send.ts';
import type { SocketHandler } from '../ws/socket-router.ts';

/** How many recent lines a new `/ws/logs` client gets before the live ones. */
export const BACKLOG_LINES = 100;

/**
 * `/ws/logs`: on connect one `log_lines` frame ({available, lines}) with the recent lines, then
 * one `log` frame ({line}) per new line. The only client frame answered is `ping` (`pong`);
 * anything else is ignored. A client that does not read is closed with 1013 by the frame
 * sender, so a stalled reader never grows the gateway's memory.
 */
export function logSocket(deps: {
  tail: LogTail | undefined;
  frameLimits?: Partial<FrameSenderLimits>;
}): SocketHandler {
  return (socket: WebSocket) => {
    const out = createFrameSender(socket, { limits: deps.frameLimits });
    out.sendNow({
      type: 'log_lines',
      available: deps.tail !== undefined,
      lines: deps.tail?.recent(BACKLOG_LINES) ?? [],
    });
    const unsubscribe = deps.tail?.subscribe((line) => void out.sendNow({ type: 'log', line }));
    socket.on('message', (data) => {
      if (parseFrame(data)?.type === 'ping') out.sendNow({ type: 'pong' });
    });
    socket.once('close', () => unsubscribe?.());
  };
}
