import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A fake far end's listening server that a test can take away and bring back. */
export interface RestartableServer {
  /** The port it listens on, kept across `drop()` and `restore()`. */
  readonly port: number;
  /** The far end goes away: it stops listening and every connection is cut. */
  drop: () => Promise<void>;
  /** The far end is back on the same port. */
  restore: () => Promise<void>;
  /** Cuts every connection and stops for good (also after a `drop()`). */
  close: () => Promise<void>;
}

/**
 * Listens `server` on 127.0.0.1 on an ephemeral port (or `atPort`) and tracks its connections.
 * `onCut` runs whenever connections are cut (drop and close), before the sockets go: the place
 * for a fake to release held requests, streams or WebSocket clients.
 */
export async function listenRestartable(
  server: Server,
  onCut: () => void = () => {},
  atPort = 0,
): Promise<RestartableServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(atPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const cut = () => {
    onCut();
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    drop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        cut();
      }),
    restore: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        if (!server.listening) resolve();
        else server.close(() => resolve());
      }),
  };
}
