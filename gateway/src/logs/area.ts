import type { Area } from '../lifecycle/area.ts';
import type { LogTail } from '../observability/log-tail.ts';
import type { FrameSenderLimits } from '../ws/send.ts';
import { logSocket } from './log-socket.ts';
import { logsRoutes } from './routes.ts';
import { defineArea } from '../lifecycle/install.ts';

/**
 * The gateway's own log for clients (the dashboard's log pane): `GET /api/v1/logs` and the live
 * `/ws/logs`, behind the same key, Host and origin checks as every route and socket. Without a
 * tail (a logger built by an embedding program) both answer `available: false`, and `/status`
 * `backends.logs` says so.
 */
export function logsArea(deps: {
  tail: LogTail | undefined;
  frameLimits?: Partial<FrameSenderLimits>;
}): Area {
  return {
    name: 'logs',
    routes: logsRoutes(deps.tail),
    sockets: [{ path: '/ws/logs', handler: logSocket(deps) }],
    status: () => ({
      logs: deps.tail
        ? `live tail (last ${deps.tail.capacity} lines)`
        : 'unavailable (this logger keeps no tail)',
    }),
  };
}

/** The logger's in-memory tail, served by `/api/v1/logs` and `/ws/logs` (none: unavailable). */
export interface LogsOptions {
  tail?: LogTail;
}

export const logs = defineArea('logs', (kernel, _needs: object, options: LogsOptions | undefined) =>
  logsArea({ tail: options?.tail, frameLimits: kernel.frameLimits }),
);
