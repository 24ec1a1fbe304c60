import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
} from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/** A throwaway self-signed certificate for 127.0.0.1 and localhost, made with openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-hub-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore', timeout: 10_000 },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** A local web server that counts the requests it got, for "nothing was fetched" checks. */
export interface CountingServer {
  /** `https://127.0.0.1:<port>` or `http://…`. */
  origin: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: string, requests: IncomingMessage[]) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startHttpsServer(
  certificate: { key: string; cert: string },
  handler: RequestListener,
): Promise<CountingServer> {
  const requests: IncomingMessage[] = [];
  const server = createHttpsServer(certificate, (req, res) => {
    requests.push(req);
    handler(req, res);
  });
  return listen(server, 'https', requests);
}

export async function startHttpServer(handler: RequestListener): Promise<CountingServer> {
  const requests: IncomingMessage[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(req);
    handler(req, res);
  });
  return listen(server, 'http', requests);
}

/**
 * A `fetch` for https URLs that trusts `ca` (the test certificate) and nothing else, and never
 * follows redirects: enough of fetch for the hub's downloads. Other schemes are refused, so a
 * test proves the hub never hands it one.
 */
export function fetchTrusting(ca: string): typeof globalThis.fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.protocol !== 'https:') {
        reject(new TypeError(`the test fetch only speaks https, not ${url.protocol}`));
        return;
      }
      const request = httpsRequest(
        url,
        { ca, method: init?.method ?? 'GET', signal: init?.signal ?? undefined },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers.set(name, value);
            else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
          }
          const status = res.statusCode ?? 500;
          const body =
            status === 204 || status === 304
              ? null
              : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers }));
        },
      );
      request.on('error', reject);
      request.end();
    });
}
