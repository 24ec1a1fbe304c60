import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A UDP and a TCP listener on 127.0.0.1 standing in for a STUN/TURN server a page names in its
 * ICE servers: every datagram and every TCP connection is recorded, so a WebRTC peer connection
 * that reached either shows up here.
 */
export async function startIceListener() {
  const datagrams: number[] = [];
  const connections: number[] = [];
  const udp = createSocket('udp4');
  udp.on('message', (message) => datagrams.push(message.length));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const sockets = new Set<Socket>();
  const tcp = createServer((socket) => {
    connections.push(Date.now());
    sockets.add(socket);
    socket.on('error', () => {});
    socket.resume();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const udpPort = udp.address().port;
  const tcpPort = (tcp.address() as AddressInfo).port;
  return {
    datagrams,
    connections,
    /** The ICE servers a hostile script would name: STUN, TURN over UDP and TURN over TCP. */
    iceServers: [
      { urls: [`stun:127.0.0.1:${udpPort}`] },
      {
        urls: [
          `turn:127.0.0.1:${udpPort}?transport=udp`,
          `turn:127.0.0.1:${tcpPort}?transport=tcp`,
        ],
        username: 'owner-secret-in-the-turn-user-name',
        credential: 'x',
      },
    ],
    reset() {
      datagrams.length = 0;
      connections.length = 0;
    },
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
