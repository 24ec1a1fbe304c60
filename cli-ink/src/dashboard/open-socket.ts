import type { GatewayClient } from '../gateway-client.ts';
import type { SocketLike } from './dashboard-core.ts';

/**
 * Opens a WebSocket to `path` on the client's gateway, offering the API key's subprotocol;
 * resolves once open, rejects when the gateway refuses it or nothing answers in `timeoutMs`.
 */
export function socketOpener(
  client: Pick<GatewayClient, 'baseUrl' | 'socketProtocols'>,
  timeoutMs = 5_000,
): (path: string) => Promise<SocketLike> {
  return async (path) => {
    const url = `${client.baseUrl.replace(/^http/, 'ws')}${path}`;
    const socket = new WebSocket(url, await client.socketProtocols());
    return new Promise<SocketLike>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`could not open ${path} (timed out)`));
      }, timeoutMs);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`could not open ${path}`));
      });
    });
  };
}
