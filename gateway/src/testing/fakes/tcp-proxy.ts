/**
 * A TCP proxy on a free loopback port in front of a server, which a test can cut: every open
 * connection is destroyed and new ones are dropped at once, as when the process behind a
 * client crashes or the network between them fails. `resume` lets connections through again.
 */
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Destroys every connection and drops new ones until `resume`. */
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let cut = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (cut) return void client.destroy();
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
  };

  return {
    port,
    cut() {
      cut = true;
      destroyAll();
    },
    resume() {
      cut = false;
    },
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
