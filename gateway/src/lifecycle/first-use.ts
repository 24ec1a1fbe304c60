import type { RawData, WebSocket } from 'ws';
import type { AnyRoute } from '../http/route.ts';
import type { SocketHandler } from '../ws/socket-router.ts';

/**
 * A part an area builds on first use instead of in its start-up phase (voice engines, the
 * walls of skill hosts…): `get()` builds it once (concurrent callers share the build; after a
 * failure the next call tries again), `peek()` reads it without building.
 */
export function onFirstUse<T>(build: () => Promise<T>) {
  let value: T | undefined;
  let building: Promise<T> | undefined;
  return {
    get(): Promise<T> {
      if (value !== undefined) return Promise.resolve(value);
      building ??= build().then(
        (built) => {
          value = built;
          return built;
        },
        (error: unknown) => {
          building = undefined;
          throw error;
        },
      );
      return building;
    },
    peek: (): T | undefined => value,
  };
}

export type FirstUse<T> = ReturnType<typeof onFirstUse<T>>;

/**
 * The same routes (paths, schemas, statuses: the OpenAPI document is unchanged), each waiting
 * for `prepare` before its handler runs: an area that builds its parts on first use.
 */
export function routesAfter(prepare: () => Promise<unknown>, routes: AnyRoute[]): AnyRoute[] {
  return routes.map((route) => ({
    ...route,
    handler: async (input) => {
      await prepare();
      return route.handler(input);
    },
  }));
}

/**
 * A socket handler that runs once `prepare` is done. Frames that arrive meanwhile are held and
 * handed to it in order; a socket closed meanwhile is left alone. When `prepare` fails the socket
 * closes with 1011 and the reason.
 */
export function socketAfter(
  prepare: () => Promise<unknown>,
  handler: SocketHandler,
): SocketHandler {
  return (socket: WebSocket, request) => {
    const held: [RawData, boolean][] = [];
    const hold = (data: RawData, isBinary: boolean) => held.push([data, isBinary]);
    socket.on('message', hold);
    prepare().then(
      () => {
        socket.off('message', hold);
        if (socket.readyState !== socket.OPEN) return;
        handler(socket, request);
        for (const [data, isBinary] of held) socket.emit('message', data, isBinary);
      },
      (error: unknown) => {
        socket.off('message', hold);
        const reason = error instanceof Error ? error.message : String(error);
        socket.close(1011, reason.slice(0, 120));
      },
    );
  };
}
