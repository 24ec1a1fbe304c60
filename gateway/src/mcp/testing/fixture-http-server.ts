import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { fixtureServer } from './fixture-tools.ts';

export interface FixtureHttpServer {
  url: string;
  /** Requests answered so far. */
  requests: () => number;
  /** Stops answering (connections refused) until `start` again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The fixture MCP server over Streamable HTTP on 127.0.0.1 (stateless: a server and transport
 * per request, as the SDK's examples do). `crash` stops the HTTP server.
 */
export async function startFixtureHttpServer(): Promise<FixtureHttpServer> {
  let requests = 0;
  let port = 0;
  let http: Server | undefined;
  const env = { FIXTURE: 'http' };

  const listen = () =>
    new Promise<void>((resolve) => {
      http = createServer((req, res) => {
        requests += 1;
        const mcp = fixtureServer({ crash: () => void stop(), env: () => env });
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => {
          void transport.close();
          void mcp.close();
        });
        mcp
          .connect(transport)
          .then(() => transport.handleRequest(req, res))
          .catch(() => res.destroy());
      });
      http.listen(port, '127.0.0.1', () => {
        port = (http?.address() as AddressInfo).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      const current = http;
      http = undefined;
      if (!current) return resolve();
      current.close(() => resolve());
      current.closeAllConnections();
    });

  await listen();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests: () => requests,
    stop,
    start: listen,
    close: stop,
  };
}
