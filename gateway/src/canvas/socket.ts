import type { Logger } from '../observability/logger.ts';
import type { SocketHandler } from '../ws/socket-router.ts';
import { createFrameSender, parseFrame } from '../ws/send.ts';
import type { CanvasEvent } from './ports.ts';
import type { CanvasService } from './service.ts';

/**
 * `/ws/canvas`: the full state first (`{type: 'state', blocks, count}`), then every `add`
 * (`{type: 'add', block}`) and `clear` (`{type: 'clear'}`) from any gateway sharing the store.
 * Events that happen while the state is being read are held and sent after it; an add already
 * in that state is not sent twice. Client frames: `{type: 'ping'}` answers `{type: 'pong'}`;
 * anything else gets an `error` frame and changes nothing.
 */
export function canvasSocket(deps: { canvas: CanvasService; logger: Logger }): SocketHandler {
  return (socket) => {
    const sender = createFrameSender(socket);
    const left = deps.canvas.viewerJoined();
    let held: CanvasEvent[] | undefined = [];
    let unsubscribe: (() => void) | undefined;
    const deliver = (event: CanvasEvent) => {
      if (held) held.push(event);
      else sender.sendNow(event);
    };
    try {
      unsubscribe = deps.canvas.store().subscribe(deliver);
    } catch (error) {
      sender.sendNow({ type: 'error', detail: (error as Error).message });
      socket.close(1013, 'The canvas is starting');
      left();
      return;
    }
    socket.on('close', () => {
      unsubscribe?.();
      left();
    });
    socket.on('message', (data) => {
      const frame = parseFrame(data);
      if (frame?.type === 'ping') sender.sendNow({ type: 'pong' });
      else sender.sendNow({ type: 'error', detail: 'Only {"type":"ping"} frames are accepted' });
    });
    deps.canvas
      .state()
      .then(({ blocks, count }) => {
        sender.sendNow({ type: 'state', blocks, count });
        const sent = new Set(blocks.map((block) => block.id));
        const pending = held ?? [];
        held = undefined;
        for (const event of pending) {
          if (event.type === 'add' && sent.has(event.block.id)) continue;
          sender.sendNow(event);
        }
      })
      .catch((error: unknown) => {
        deps.logger.warn({ err: error }, 'canvas state unavailable for a viewer');
        sender.sendNow({ type: 'error', detail: (error as Error).message });
        socket.close(1011, 'The canvas store is unavailable');
      });
  };
}
